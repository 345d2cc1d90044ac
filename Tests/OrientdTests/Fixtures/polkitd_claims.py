"""python-dbusmock's polkitd template, allowing net.hadess.SensorProxy.claim-sensor and refusing every other
action: the polkit of the tests' own system buses, D-Bus activated at the first question, as polkitd is on a real
system. Its mock interface (org.freedesktop.DBus.Mock: SetAllowed, SimulateHang ...) changes that at run time.
"""
from dbusmock.templates import polkitd
from dbusmock.templates.polkitd import *  # noqa: F401,F403 (the template's methods)


def load(mock, parameters):
    polkitd.load(mock, parameters)
    mock.allowed = ["net.hadess.SensorProxy.claim-sensor"]
