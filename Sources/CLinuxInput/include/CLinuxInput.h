// The kernel's input interfaces: evdev (reading a switch such as SW_LID) and uinput (creating a device that
// reports SW_TABLET_MODE). Their requests are ioctl() macros, and ioctl() is variadic, so Swift cannot call
// either directly: these small functions do, and return what ioctl() returns (-1 with errno set on failure).
#ifndef CLINUXINPUT_H
#define CLINUXINPUT_H

#include <linux/input.h>
#include <linux/uinput.h>

/// EVIOCGBIT(type, length): which codes of event type `type` the device reports, as a bitmask in `bits`.
int orientd_evdev_event_bits(int fd, unsigned int type, void *bits, unsigned int length);

/// EVIOCGSW(length): the current state of every switch, as a bitmask in `bits`.
int orientd_evdev_switch_state(int fd, void *bits, unsigned int length);

/// EVIOCGABS(axis): the current value of absolute axis `axis` (ABS_X ...), in `value`.
int orientd_evdev_absolute_value(int fd, unsigned int axis, int *value);

/// UI_SET_EVBIT / UI_SET_SWBIT: declares an event type, or a switch, the uinput device will report.
int orientd_uinput_enable_event_type(int fd, int type);
int orientd_uinput_enable_switch(int fd, int code);

/// UI_DEV_SETUP then UI_DEV_CREATE: names the device and creates it.
int orientd_uinput_create(int fd, const char *name, unsigned short vendor, unsigned short product);

/// UI_DEV_DESTROY.
int orientd_uinput_destroy(int fd);

/// Installs a seccomp filter on the calling thread (and the threads it starts later) that refuses, with EPERM, every
/// uinput request but those a tablet-mode switch needs: UI_SET_EVBIT with EV_SW, UI_SET_SWBIT with SW_TABLET_MODE,
/// UI_DEV_SETUP, UI_DEV_CREATE and UI_DEV_DESTROY. So a compromised caller can make no device that types or points.
/// Sets no_new_privs first, as the kernel requires of an unprivileged caller. Irreversible. Returns 0, or -1 with
/// errno set (ENOSYS on an architecture it does not know).
int orientd_uinput_restrict_requests(void);

#endif
