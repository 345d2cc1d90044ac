// The net.hadess.SensorProxy object tables for sd-bus.
//
// sd-bus describes objects with vtables whose entries its macros write as compound literals, which Swift cannot
// import. These functions write one entry each, so that the tables can be built in Swift from the sensor kinds'
// bindings; every method and property of a table forwards to the two Swift callbacks of `csp_handlers`.
#ifndef CSENSORPROXYBUS_H
#define CSENSORPROXYBUS_H

#include <systemd/sd-bus.h>

typedef struct csp_handlers {
    void *context;
    /// A method call (its member name): a negative errno (with `error` set or not) fails it; 0 replies with no values;
    /// a positive value means the handler took a reference to `call` and replies later.
    int (*method)(void *context, sd_bus_message *call, const char *member, sd_bus_error *error);
    /// A property read: append the value of `property` to `reply` with sd_bus_message_append_basic.
    int (*property)(void *context, sd_bus_message *reply, const char *property, sd_bus_error *error);
} csp_handlers;

/// The first entry of a table.
void csp_vtable_start(sd_bus_vtable *entry);
/// A read-only property whose changes are announced with PropertiesChanged.
void csp_vtable_property(sd_bus_vtable *entry, const char *name, const char *signature);
/// A method that takes and returns nothing, callable by any user the D-Bus policy lets through.
void csp_vtable_method(sd_bus_vtable *entry, const char *name);
/// The last entry of a table.
void csp_vtable_end(sd_bus_vtable *entry);

#endif
