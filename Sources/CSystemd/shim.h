// libsystemd's D-Bus client library, for the net.hadess.SensorProxy facade.
#include <systemd/sd-bus.h>
