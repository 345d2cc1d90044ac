// The test process's global executor, widened before any test starts (OrientTestSupport/WideGlobalExecutor.swift).
#ifndef CWIDEGLOBALEXECUTOR_H
#define CWIDEGLOBALEXECUTOR_H

/// How many tests Swift Testing runs at once (its SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH), unless the
/// environment says otherwise; the pool has more threads than this (WideGlobalExecutor.width).
#define ORIENTD_TESTS_AT_ONCE "16"

/// Defined in Swift (OrientTestSupport); called once, before main.
void orientd_tests_widen_global_executor(void);

/// Sets Swift concurrency's hooks for jobs enqueued now, after a delay and at a deadline (Swift function pointers),
/// where no one has set them; returns how many it set.
int orientd_tests_install_global_hooks(const void *now, const void *delay, const void *deadline);

#endif
