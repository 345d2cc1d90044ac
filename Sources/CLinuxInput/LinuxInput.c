#include "CLinuxInput.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int orientd_evdev_event_bits(int fd, unsigned int type, void *bits, unsigned int length) {
    return ioctl(fd, EVIOCGBIT(type, length), bits);
}

int orientd_evdev_switch_state(int fd, void *bits, unsigned int length) {
    return ioctl(fd, EVIOCGSW(length), bits);
}

int orientd_evdev_absolute_value(int fd, unsigned int axis, int *value) {
    struct input_absinfo info;
    int result = ioctl(fd, EVIOCGABS(axis), &info);
    if (result >= 0)
        *value = info.value;
    return result;
}

int orientd_uinput_enable_event_type(int fd, int type) {
    return ioctl(fd, UI_SET_EVBIT, type);
}

int orientd_uinput_enable_switch(int fd, int code) {
    return ioctl(fd, UI_SET_SWBIT, code);
}

int orientd_uinput_create(int fd, const char *name, unsigned short vendor, unsigned short product) {
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = vendor;
    setup.id.product = product;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) return -1;
    return ioctl(fd, UI_DEV_CREATE);
}

int orientd_uinput_destroy(int fd) {
    return ioctl(fd, UI_DEV_DESTROY);
}

// Seccomp's view of a call (struct seccomp_data): the syscall's number, the architecture, then six 64-bit
// arguments, of which a filter loads 32 bits at a time. Little-endian: an argument's low half is at its offset.
#if defined(__x86_64__)
#define ORIENTD_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ORIENTD_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#define ORIENTD_LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define ORIENTD_LOAD_ARG_LOW(n) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[n]))
#define ORIENTD_ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
#define ORIENTD_REFUSE BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

int orientd_uinput_restrict_requests(void) {
#ifndef ORIENTD_AUDIT_ARCH
    errno = ENOSYS;
    return -1;
#else
    struct sock_filter program[] = {
        // Another architecture's calls (i386's on x86_64) have other numbers: refused outright.
        ORIENTD_LOAD(arch),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ORIENTD_AUDIT_ARCH, 1, 0),
        ORIENTD_REFUSE,
        // Every call but ioctl passes.
        ORIENTD_LOAD(nr),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 1, 0),
        ORIENTD_ALLOW,
        // Every ioctl but uinput's ('U' in the request's type byte) passes.
        ORIENTD_LOAD_ARG_LOW(1),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xff00),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UINPUT_IOCTL_BASE << 8, 1, 0),
        ORIENTD_ALLOW,
        ORIENTD_LOAD_ARG_LOW(1),
        // The three requests that set up, create and destroy a device carry no capability.
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UI_DEV_SETUP, 0, 1),
        ORIENTD_ALLOW,
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UI_DEV_CREATE, 0, 1),
        ORIENTD_ALLOW,
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UI_DEV_DESTROY, 0, 1),
        ORIENTD_ALLOW,
        // UI_SET_EVBIT with EV_SW alone, UI_SET_SWBIT with SW_TABLET_MODE alone.
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UI_SET_EVBIT, 0, 4),
        ORIENTD_LOAD_ARG_LOW(2),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, EV_SW, 0, 1),
        ORIENTD_ALLOW,
        ORIENTD_REFUSE,
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UI_SET_SWBIT, 0, 4),
        ORIENTD_LOAD_ARG_LOW(2),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SW_TABLET_MODE, 0, 1),
        ORIENTD_ALLOW,
        ORIENTD_REFUSE,
        // Any other uinput request: a key, an axis, a force-feedback upload.
        ORIENTD_REFUSE,
    };
    struct sock_fprog filter = {.len = sizeof program / sizeof program[0], .filter = program};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    // TSYNC: every thread of the process, not only the caller's. A thread that cannot follow is named by its id.
    long result = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &filter);
    if (result > 0) {
        errno = EAGAIN;
        return -1;
    }
    return (int)result;
#endif
}
