import CSensorProxyBus
import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// One object's sd-bus member table, built from the bindings of the kinds it serves: every property, then each
/// kind's `Claim` and `Release` method. The table and the names it points to live as long as this does, which
/// must be as long as the object is registered.
final class BusObjectTable {
    let object: BusObject
    let entries: UnsafeMutablePointer<sd_bus_vtable>
    private var names: [UnsafeMutablePointer<CChar>] = []

    init(_ object: BusObject) {
        self.object = object
        let bindings = object.bindings
        let properties = bindings.flatMap(\.properties)
        let methods = bindings.flatMap { [$0.claimMethod, $0.releaseMethod] }
        entries = .allocate(capacity: properties.count + methods.count + 2)
        var next = entries
        csp_vtable_start(next)
        for property in properties {
            next += 1
            csp_vtable_property(next, keep(property.name), keep(property.signature))
        }
        for method in methods {
            next += 1
            csp_vtable_method(next, keep(method))
        }
        next += 1
        csp_vtable_end(next)
    }

    deinit {
        entries.deallocate()
        for name in names { free(name) }
    }

    /// A C copy of `text` that lives as long as the table.
    private func keep(_ text: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(text)!
        names.append(copy)
        return copy
    }
}
