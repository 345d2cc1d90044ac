#include "CSensorProxyBus.h"

#include <string.h>

static int forward_method(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    const csp_handlers *handlers = userdata;
    int result = handlers->method(handlers->context, call, sd_bus_message_get_member(call), error);
    if (result != 0)
        return result;
    return sd_bus_reply_method_return(call, NULL);
}

static int forward_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus;
    (void)path;
    (void)interface;
    const csp_handlers *handlers = userdata;
    return handlers->property(handlers->context, reply, property, error);
}

// Each entry is written field by field over zeroes, as sd-bus-vtable.h's macros would write it: sd-bus reads the
// union's unused bytes too.

void csp_vtable_start(sd_bus_vtable *entry) {
    memset(entry, 0, sizeof *entry);
    entry->type = _SD_BUS_VTABLE_START;
    entry->x.start.element_size = sizeof(sd_bus_vtable);
    entry->x.start.features = _SD_BUS_VTABLE_PARAM_NAMES;
    entry->x.start.vtable_format_reference = &sd_bus_object_vtable_format;
}

void csp_vtable_property(sd_bus_vtable *entry, const char *name, const char *signature) {
    memset(entry, 0, sizeof *entry);
    entry->type = _SD_BUS_VTABLE_PROPERTY;
    entry->flags = SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE;
    entry->x.property.member = name;
    entry->x.property.signature = signature;
    entry->x.property.get = forward_property;
}

// Without SD_BUS_VTABLE_UNPRIVILEGED sd-bus refuses callers of another uid than the service's (unless they hold
// CAP_SYS_ADMIN); the D-Bus policy decides who may call, and it lets anyone claim, as iio-sensor-proxy does.
void csp_vtable_method(sd_bus_vtable *entry, const char *name) {
    memset(entry, 0, sizeof *entry);
    entry->type = _SD_BUS_VTABLE_METHOD;
    entry->flags = SD_BUS_VTABLE_UNPRIVILEGED;
    entry->x.method.member = name;
    entry->x.method.signature = "";
    entry->x.method.result = "";
    entry->x.method.handler = forward_method;
    entry->x.method.names = "";
}

void csp_vtable_end(sd_bus_vtable *entry) {
    memset(entry, 0, sizeof *entry);
    entry->type = _SD_BUS_VTABLE_END;
}
