// The net.hadess.SensorProxy object tables for sd-bus.
//
// sd-bus describes objects with vtables built from macros that expand to compound literals, which Swift cannot
// import; this target holds the tables and forwards every call to two Swift callbacks.
#ifndef CSENSORPROXYBUS_H
#define CSENSORPROXYBUS_H

#include <systemd/sd-bus.h>

#define CSP_BUS_NAME "net.hadess.SensorProxy"
#define CSP_OBJECT_PATH "/net/hadess/SensorProxy"
#define CSP_INTERFACE "net.hadess.SensorProxy"
#define CSP_COMPASS_PATH "/net/hadess/SensorProxy/Compass"
#define CSP_COMPASS_INTERFACE "net.hadess.SensorProxy.Compass"

typedef struct csp_handlers {
    void *context;
    /// A method call (its member name): a negative errno (with `error` set or not) fails it; 0 replies with no values.
    int (*method)(void *context, sd_bus_message *call, const char *member, sd_bus_error *error);
    /// A property read: append the value of `property` to `reply` with sd_bus_message_append_basic.
    int (*property)(void *context, sd_bus_message *reply, const char *property, sd_bus_error *error);
} csp_handlers;

/// Registers both objects on `bus`. `handlers` must outlive the slots, which unregister them when unreferenced.
int csp_add_objects(sd_bus *bus, const csp_handlers *handlers, sd_bus_slot **main_slot, sd_bus_slot **compass_slot);

#endif
