import OrientCore

/// A state's members, written into the object of the reply or event that carries it.
extension OrientationState: Codable {
    public func encode(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: WireKey.self)
        try members.encode(device, forKey: .device)
        try members.encode(interface, forKey: .interface)
        try members.encode(rotation, forKey: .rotation)
        try members.encode(locked, forKey: .locked)
        try members.encode(mask.name, forKey: .mask)
        try members.encode(sensor, forKey: .sensor)
        try members.encode(time, forKey: .t)
        // Always present, so that a client can tell "no base sensor" (unknown, null) from an older daemon.
        try members.encode(hinge.posture, forKey: .posture)
        try members.encode(hinge.tabletMode, forKey: .tabletMode)
        try members.encode(hinge.hingeAngle, forKey: .hingeAngle)
    }

    /// A daemon from before convertibles sends no posture, tablet mode or hinge angle: they read as unknown; one from
    /// before natural orientation sends no rotation: nil.
    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: WireKey.self)
        let maskName = try members.decode(String.self, forKey: .mask)
        do {
            mask = try InterfaceOrientationMask(parsing: maskName)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .mask, in: members, debugDescription: error.description)
        }
        device = try members.decode(DeviceOrientation.self, forKey: .device)
        interface = try members.decode(InterfaceOrientation.self, forKey: .interface)
        rotation = try members.decodeIfPresent(Int.self, forKey: .rotation)
        locked = try members.decode(Bool.self, forKey: .locked)
        sensor = try members.decode(SensorState.self, forKey: .sensor)
        time = try members.decodeIfPresent(Double.self, forKey: .t)
        hinge = HingeState(
            posture: try members.decodeIfPresent(Posture.self, forKey: .posture) ?? .unknown,
            tabletMode: try members.decodeIfPresent(Bool.self, forKey: .tabletMode),
            hingeAngle: try members.decodeIfPresent(Double.self, forKey: .hingeAngle))
    }
}
