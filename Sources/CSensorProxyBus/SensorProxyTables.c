#include "CSensorProxyBus.h"

#include <stddef.h>

static int forward_method(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    const csp_handlers *handlers = userdata;
    int result = handlers->method(handlers->context, call, sd_bus_message_get_member(call), error);
    if (result < 0)
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

#define CHANGING SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
// Without this flag sd-bus refuses callers of another uid than the service's (unless they hold CAP_SYS_ADMIN);
// the D-Bus policy decides who may call, and it lets anyone claim, as iio-sensor-proxy does.
#define ANYONE SD_BUS_VTABLE_UNPRIVILEGED

// The members iio-sensor-proxy 3.x offers and its clients (mutter, QtSensors, monitor-sensor) use.
static const sd_bus_vtable sensor_proxy_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("HasAccelerometer", "b", forward_property, 0, CHANGING),
    SD_BUS_PROPERTY("AccelerometerOrientation", "s", forward_property, 0, CHANGING),
    // Newer iio-sensor-proxy versions (3.x after Debian's 3.0).
    SD_BUS_PROPERTY("AccelerometerTilt", "s", forward_property, 0, CHANGING),
    SD_BUS_PROPERTY("HasAmbientLight", "b", forward_property, 0, CHANGING),
    SD_BUS_PROPERTY("LightLevelUnit", "s", forward_property, 0, CHANGING),
    SD_BUS_PROPERTY("LightLevel", "d", forward_property, 0, CHANGING),
    SD_BUS_PROPERTY("HasProximity", "b", forward_property, 0, CHANGING),
    SD_BUS_PROPERTY("ProximityNear", "b", forward_property, 0, CHANGING),
    SD_BUS_METHOD("ClaimAccelerometer", "", "", forward_method, ANYONE),
    SD_BUS_METHOD("ReleaseAccelerometer", "", "", forward_method, ANYONE),
    SD_BUS_METHOD("ClaimLight", "", "", forward_method, ANYONE),
    SD_BUS_METHOD("ReleaseLight", "", "", forward_method, ANYONE),
    SD_BUS_METHOD("ClaimProximity", "", "", forward_method, ANYONE),
    SD_BUS_METHOD("ReleaseProximity", "", "", forward_method, ANYONE),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable compass_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("HasCompass", "b", forward_property, 0, CHANGING),
    SD_BUS_PROPERTY("CompassHeading", "d", forward_property, 0, CHANGING),
    SD_BUS_METHOD("ClaimCompass", "", "", forward_method, ANYONE),
    SD_BUS_METHOD("ReleaseCompass", "", "", forward_method, ANYONE),
    SD_BUS_VTABLE_END,
};

int csp_add_objects(sd_bus *bus, const csp_handlers *handlers, sd_bus_slot **main_slot, sd_bus_slot **compass_slot) {
    void *userdata = (void *)handlers;
    int result = sd_bus_add_object_vtable(bus, main_slot, CSP_OBJECT_PATH, CSP_INTERFACE, sensor_proxy_vtable, userdata);
    if (result < 0)
        return result;
    result = sd_bus_add_object_vtable(bus, compass_slot, CSP_COMPASS_PATH, CSP_COMPASS_INTERFACE, compass_vtable, userdata);
    if (result < 0) {
        *main_slot = sd_bus_slot_unref(*main_slot);
        return result;
    }
    return 0;
}
