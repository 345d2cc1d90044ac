#!/usr/bin/env python3
"""A D-Bus client of the net.hadess.SensorProxy facade for the tests, through GIO (as mutter calls it).

Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS), prints "ready UNIQUE-NAME", then obeys one command per
line on stdin and answers each with one line:
  claim | release           ClaimAccelerometer / ReleaseAccelerometer  -> "ok" or "error MESSAGE"
  claim-light | release-light   ClaimLight / ReleaseLight             -> "ok" or "error MESSAGE"
  claim-proximity | release-proximity   ClaimProximity / ReleaseProximity -> "ok" or "error MESSAGE"
  claim-compass | release-compass   ClaimCompass / ReleaseCompass on the compass object -> "ok" or "error MESSAGE"
  compass-get PROPERTY      Properties.Get of the compass object's PROPERTY -> "value TEXT" or "error MESSAGE"
  own NAME                  request NAME without queueing              -> "owned" or "error MESSAGE"
  ping                      org.freedesktop.DBus.Peer.Ping on the facade -> "ok" or "error MESSAGE"
  get-all                   Properties.GetAll of the main object, as GIO's proxies read it at the start
                                                     -> "values" and the dictionary GVariant prints, or "error MESSAGE"
  watch                     from now on, print each PropertiesChanged the facade sends this client as
                            "signal " and the line `gdbus monitor` prints for it          -> "ok"
End of input (or being killed) leaves the bus, which drops the client's claims. Commands run on a thread of their
own while the main thread dispatches signals, so a signal line may come between a command and its answer.
"""
import sys
import threading

from gi.repository import Gio, GLib

NAME = "net.hadess.SensorProxy"
PATH = "/net/hadess/SensorProxy"
METHODS = {"claim": "ClaimAccelerometer", "release": "ReleaseAccelerometer",
           "claim-light": "ClaimLight", "release-light": "ReleaseLight",
           "claim-proximity": "ClaimProximity", "release-proximity": "ReleaseProximity"}
COMPASS_PATH = "/net/hadess/SensorProxy/Compass"
COMPASS = "net.hadess.SensorProxy.Compass"
COMPASS_METHODS = {"claim-compass": "ClaimCompass", "release-compass": "ReleaseCompass"}
# Milliseconds: above the 3 s a claim may wait for a sensor's first reading.
TIMEOUT = 10000


output = threading.Lock()
watching = threading.Event()


def say(*words):
    with output:
        print(*words)


def changed(_bus, _sender, path, interface, member, parameters):
    if watching.is_set():
        say(f"signal {path}: {interface}.{member} {parameters.print_(True)}")


def main():
    bus = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
    bus.signal_subscribe(NAME, "org.freedesktop.DBus.Properties", "PropertiesChanged", None, None,
                         Gio.DBusSignalFlags.NONE, changed)
    loop = GLib.MainLoop()
    threading.Thread(target=obey, args=(bus, loop), daemon=True).start()
    say("ready", bus.get_unique_name())
    loop.run()


def obey(bus, loop):
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "watch":
                watching.set()
                say("ok")
            elif words[0] in METHODS:
                bus.call_sync(NAME, PATH, NAME, METHODS[words[0]], None, None, Gio.DBusCallFlags.NONE, TIMEOUT, None)
                say("ok")
            elif words[0] in COMPASS_METHODS:
                bus.call_sync(NAME, COMPASS_PATH, COMPASS, COMPASS_METHODS[words[0]], None, None,
                              Gio.DBusCallFlags.NONE, TIMEOUT, None)
                say("ok")
            elif words[0] == "compass-get":
                reply = bus.call_sync(NAME, COMPASS_PATH, "org.freedesktop.DBus.Properties", "Get",
                                      GLib.Variant("(ss)", (COMPASS, words[1])), None, Gio.DBusCallFlags.NONE, TIMEOUT, None)
                say("value", reply.unpack()[0])
            elif words[0] == "get-all":
                reply = bus.call_sync(NAME, PATH, "org.freedesktop.DBus.Properties", "GetAll", GLib.Variant("(s)", (NAME,)),
                                      None, Gio.DBusCallFlags.NONE, TIMEOUT, None)
                say("values", reply.get_child_value(0).print_(True))
            elif words[0] == "ping":
                bus.call_sync(NAME, PATH, "org.freedesktop.DBus.Peer", "Ping", None, None, Gio.DBusCallFlags.NONE, TIMEOUT, None)
                say("ok")
            elif words[0] == "own":
                reply = bus.call_sync(
                    "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                    GLib.Variant("(su)", (words[1], 4)), GLib.VariantType("(u)"), Gio.DBusCallFlags.NONE, TIMEOUT, None)
                # 1: primary owner; 4 (DO_NOT_QUEUE) means it failed otherwise.
                say("owned" if reply.unpack()[0] == 1 else "error not the owner")
            else:
                say("error unknown command", words[0])
        except GLib.Error as error:
            say("error", error.message)
    loop.quit()


if __name__ == "__main__":
    main()
