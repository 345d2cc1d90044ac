import Foundation
import Testing

@testable import OrientServer

@Suite("Control authorisation")
struct ControlAuthorizerTests {
    private func authorizer(group: String?) throws -> ControlAuthorizer {
        let folder = try temporaryFolder()
        try "root:x:0:\nrotators:x:1500:alice,bob\nvideo:x:44:\n".write(toFile: folder + "/group", atomically: true, encoding: .utf8)
        try "root:x:0:0::/root:/bin/sh\nalice:x:1001:1001::/home/alice:/bin/sh\ncarol:x:1003:1500::/:/bin/sh\neve:x:1004:1004::/:/bin/sh\n"
            .write(toFile: folder + "/passwd", atomically: true, encoding: .utf8)
        var result = ControlAuthorizer(group: group)
        result.groupFile = folder + "/group"
        result.passwdFile = folder + "/passwd"
        return result
    }

    @Test("Root always; the control group's members and primary-group users; nobody else")
    func decisions() throws {
        let byName = try authorizer(group: "rotators")
        #expect(byName.allows(PeerCredentials(pid: 1, uid: 0, gid: 0)))
        #expect(byName.allows(PeerCredentials(pid: 1, uid: 1001, gid: 1001)), "alice is listed as a member")
        #expect(byName.allows(PeerCredentials(pid: 1, uid: 1003, gid: 1500)), "carol's primary group")
        #expect(!byName.allows(PeerCredentials(pid: 1, uid: 1004, gid: 1004)), "eve is not in the group")
        #expect(!byName.allows(PeerCredentials(pid: 1, uid: 2000, gid: 2000)), "no passwd entry")
        let byNumber = try authorizer(group: "1500")
        #expect(byNumber.allows(PeerCredentials(pid: 1, uid: 1001, gid: 1001)))
        let rootOnly = try authorizer(group: nil)
        #expect(!rootOnly.allows(PeerCredentials(pid: 1, uid: 1001, gid: 1500)))
        let unknown = try authorizer(group: "nosuchgroup")
        #expect(!unknown.allows(PeerCredentials(pid: 1, uid: 1001, gid: 1001)))
        let numberWithoutEntry = try authorizer(group: "4242")
        #expect(numberWithoutEntry.allows(PeerCredentials(pid: 1, uid: 7, gid: 4242)))
    }
}
