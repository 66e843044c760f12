# Ctrl-C in long nogil loops: a loop calls `interrupted()` every few thousand nodes or games
# (it takes the GIL for a moment and runs Python's signal handlers, which only the main thread
# does); when it is true the loop frees its buffers and returns a code, and the def-level caller,
# out of any `with` block, calls `reraise()` to raise what the handler raised (KeyboardInterrupt
# for Ctrl-C). The exception is held aside in between (in the thread's state dict), so that no
# Python code (a lock's __exit__) runs with it set.

cdef extern from *:
    """
    /* the exception a signal handler raised, held in the thread's state dict (one per thread,
       shared by every module of the core) until nardy_reraise raises it */
    static int nardy_interrupted(void) {
        int found;
        PyObject *type, *value, *tb, *dict;
        PyGILState_STATE state = PyGILState_Ensure();
        found = PyErr_CheckSignals() < 0;
        if (found) {
            PyErr_Fetch(&type, &value, &tb);
            PyErr_NormalizeException(&type, &value, &tb);
            dict = PyThreadState_GetDict();
            if (dict == NULL || value == NULL || PyDict_SetItemString(dict, "nardy.signal", value) < 0) {
                PyErr_Clear();
            }
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
        }
        PyGILState_Release(state);
        return found;
    }

    static int nardy_reraise(void) {
        PyObject *dict = PyThreadState_GetDict();
        PyObject *value = dict == NULL ? NULL : PyDict_GetItemString(dict, "nardy.signal");
        if (value == NULL) {
            PyErr_SetNone(PyExc_KeyboardInterrupt);
            return -1;
        }
        Py_INCREF(value);
        PyDict_DelItemString(dict, "nardy.signal");
        PyErr_SetObject((PyObject *)Py_TYPE(value), value);
        Py_DECREF(value);
        return -1;
    }
    """
    bint interrupted "nardy_interrupted"() noexcept nogil  # has a signal handler raised?
    int reraise "nardy_reraise"() except -1  # raise what it raised
