#include "CExecutorHook.h"

#include <stddef.h>

extern const void *swift_task_enqueueGlobal_hook;

int orientd_install_enqueue_global_hook(const void *hook) {
    return __atomic_compare_exchange_n(&swift_task_enqueueGlobal_hook, &(const void *){NULL}, hook, 0,
                                       __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
