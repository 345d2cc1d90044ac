// The sample-source interface and the POSIX helpers moved to targets of their own, so that the server and the
// D-Bus facade need not link libiio; whoever imports OrientSensors still sees them.
@_exported import OrientPosix
@_exported import OrientSampleSource
