// Swift concurrency's hook for enqueueing global jobs, which NIO fills to run them on its event loops.
//
// NIO finds the hook with dlsym, which cannot see it once the Swift runtime is linked statically (the static
// runtime is linked with --exclude-libs ALL); C code can still reference it at link time.
#ifndef CEXECUTORHOOK_H
#define CEXECUTORHOOK_H

/// Sets the hook to `hook` (a Swift function pointer) if no one has; returns whether it was set.
int orientd_install_enqueue_global_hook(const void *hook);

#endif
