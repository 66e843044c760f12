/* The one CPU-feature switch: whether the running CPU (and its OS: AVX state saved) can execute
 * a kind of vector code. Every choice of SIMD or x86-64-v3 code in the core asks nardy_cpu_has
 * (the batch kernels of _batch.h, the evaluator's loops in _net.h, the x86-64-v3 walks chosen by
 * _movegen); build flags never decide, and on other targets the answer is no. */
#ifndef NARDY_CPU_H
#define NARDY_CPU_H

enum {
    NARDY_CPU_AVX2 = 1,        /* AVX2 */
    NARDY_CPU_AVX2_FMA = 2,    /* AVX2 and FMA */
    NARDY_CPU_X86_64_V3 = 3,   /* everything x86-64-v3 code may use: AVX2, BMI1/2, FMA, F16C, MOVBE, LZCNT */
    NARDY_CPU_NET = 4,         /* the evaluator's loops (_net.h, _features.h): AVX2, FMA, BMI1/2, POPCNT */
};

static inline int nardy_cpu_has(int kind) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    switch (kind) {
    case NARDY_CPU_AVX2:
        return __builtin_cpu_supports("avx2") != 0;
    case NARDY_CPU_AVX2_FMA:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case NARDY_CPU_X86_64_V3:
#if !defined(__x86_64__)
        return 0;
#elif !defined(__clang__) && __GNUC__ >= 12
        return __builtin_cpu_supports("x86-64-v3") != 0;
#else
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")
            && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("movbe")
            && __builtin_cpu_supports("lzcnt");
#endif
    case NARDY_CPU_NET:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi")
            && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    default:
        return 0;
    }
#else
    (void)kind;
    return 0;
#endif
}

#endif
