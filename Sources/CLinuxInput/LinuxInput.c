#include "CLinuxInput.h"

#include <string.h>
#include <sys/ioctl.h>

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
