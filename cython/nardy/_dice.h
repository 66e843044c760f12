/* C of _dice.pxd: numpy's bit generator interface, as nardy reads it. */
#ifndef NARDY_DICE_H
#define NARDY_DICE_H

#include <stdint.h>

/* numpy/random/bitgen.h: numpy's documented C interface to its bit generators */
typedef struct nardy_bitgen {
  void *state;
  uint64_t (*next_uint64)(void *st);
  uint32_t (*next_uint32)(void *st);
  double (*next_double)(void *st);
  uint64_t (*next_raw)(void *st);
} nardy_bitgen_t;

#endif
