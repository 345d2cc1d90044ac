#include "CWideGlobalExecutor.h"

#include <stddef.h>
#include <stdlib.h>

// The Swift runtime's hooks: C sees them at link time (the Swift side would need dlsym).
extern const void *swift_task_enqueueGlobal_hook;
extern const void *swift_task_enqueueGlobalWithDelay_hook;
extern const void *swift_task_enqueueGlobalWithDeadline_hook;

static int install(const void **slot, const void *hook) {
    return __atomic_compare_exchange_n(slot, &(const void *){NULL}, hook, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

int orientd_tests_install_global_hooks(const void *now, const void *delay, const void *deadline) {
    return install(&swift_task_enqueueGlobal_hook, now) + install(&swift_task_enqueueGlobalWithDelay_hook, delay)
        + install(&swift_task_enqueueGlobalWithDeadline_hook, deadline);
}

// Runs before main, so before Swift Testing has made its first task (every test's job then goes to the wide pool)
// or read its environment: it runs at most this many tests at once, fewer than the pool has threads, so that a
// test's own tasks always find a thread however many tests are blocked. Set in the environment, it wins.
__attribute__((constructor)) static void widen_before_main(void) {
    setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", ORIENTD_TESTS_AT_ONCE, 0);
    orientd_tests_widen_global_executor();
}
