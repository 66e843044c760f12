/* C of _signals.pxd: Ctrl-C in long loops. */
#ifndef NARDY_SIGNALS_H
#define NARDY_SIGNALS_H

#include <Python.h>

/* the exception a signal handler raised, held in the thread's state dict (one per thread,
   shared by every module of the core) until nardy_reraise raises it */
static inline int nardy_interrupted(void) {
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

static inline int nardy_reraise(void) {
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

#endif
