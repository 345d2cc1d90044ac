#!/usr/bin/python3
"""orientd.socket and orientd.service acted out as systemd would, where systemd does not run: for
scripts/check-deb.sh, and for the real-kernel tests in their virtme-ng guest (Tests/Kernel).

Usage: unit-stand-in.py SERVICE-UNIT SOCKET STATE-FOLDER [-- EXTRA-ARGUMENT...]

SOCKET "-" stands for a service with no socket (orientd-tablet-mode-switch.service, as udev starts it): it starts at
once, and SIGTERM stops it.

Like the socket unit, it listens on SOCKET (mode 0666) for as long as it runs, and starts the service at the first
connection. Like the service unit, it starts the unit's ExecStart (plus EXTRA-ARGUMENTs) as its User and Group,
after making its StateDirectory under /var/lib owned by them and running its ExecStartPre lines (its ExecStopPost
lines once it has stopped), drop-ins in UNIT.d/ included, and hands it the listening socket as systemd does
(descriptor 3, LISTEN_FDS=1, LISTEN_PID). Signals stand for systemctl's requests:
  SIGUSR1  try-restart orientd.service: stop the service if it runs (SIGTERM, as systemd stops it) and start it
           again at once, from the unit's ExecStart as it is now on disk;
  SIGTERM  stop orientd.socket: stop the service, close the socket and remove its file (RemoveOnStop=yes), exit.
In STATE-FOLDER it keeps stand-in.pid (its own), service.pid (the running service's, absent while none runs), and
a log of what it did with the service's output.
"""
import os
import pwd
import select
import signal
import socket
import subprocess
import sys
import time


def unit_settings(path):
    """The [Service] keys this stand-in acts on, from the unit and then its drop-ins (UNIT.d/*.conf, in name order,
    as systemd reads them): a later ExecStart, User, Group or StateDirectory wins; ExecStartPre and ExecStopPost
    lines add up."""
    settings = {"ExecStartPre": [], "ExecStopPost": []}
    drop_ins = os.path.join(os.path.dirname(path), os.path.basename(path) + ".d")
    files = [path] + (sorted(os.path.join(drop_ins, name) for name in os.listdir(drop_ins) if name.endswith(".conf"))
                      if os.path.isdir(drop_ins) else [])
    for name in files:
        with open(name) as f:
            for line in f:
                key, sep, value = line.strip().partition("=")
                if sep and key in ("ExecStart", "User", "Group", "StateDirectory"):
                    settings[key] = value
                elif sep and key in ("ExecStartPre", "ExecStopPost"):
                    settings[key].append(value)
    return settings


def run_hooks(commands, user, say):
    """ExecStartPre= or ExecStopPost= lines: "+" runs one as root outside the sandbox (this stand-in has none, so
    as root), "-" lets it fail; without "+" it runs as the unit's user."""
    for command in commands:
        prefixes = command[:len(command) - len(command.lstrip("+-@!:"))]
        words = command[len(prefixes):].split()

        def as_the_user():
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)

        try:
            status = subprocess.run(words, preexec_fn=None if "+" in prefixes else as_the_user,
                                    stdin=subprocess.DEVNULL, capture_output=True).returncode
        except OSError as error:
            status = f"not run: {error}"
        say(f"ran {command}: {status}")
        if status != 0 and "-" not in prefixes:
            raise RuntimeError(f"{command} failed: {status}")


class StandIn:
    def __init__(self, unit, socket_path, folder, extra):
        self.unit, self.socket_path, self.folder, self.extra = unit, socket_path, folder, extra
        self.service = None
        self.pending = []
        self.log = open(os.path.join(folder, "stand-in.log"), "a", buffering=1)

    def say(self, text):
        self.log.write(f"{time.strftime('%H:%M:%S')} {text}\n")

    def listen(self):
        if os.path.exists(self.socket_path):
            os.unlink(self.socket_path)
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.socket_path)
        os.chmod(self.socket_path, 0o666)
        self.listener.listen(128)
        self.listener.set_inheritable(True)
        self.say(f"listening on {self.socket_path}")

    def start_service(self):
        settings = unit_settings(self.unit)
        user = pwd.getpwnam(settings["User"])
        if "StateDirectory" in settings:
            state = os.path.join("/var/lib", settings["StateDirectory"])
            os.makedirs(state, mode=0o700, exist_ok=True)
            os.chown(state, user.pw_uid, user.pw_gid)
        run_hooks(settings["ExecStartPre"], user, self.say)
        self.stop_hooks = (settings["ExecStopPost"], user)
        command = settings["ExecStart"].split() + self.extra
        fd = self.listener.fileno() if self.socket_path != "-" else None

        def as_the_unit():
            if fd != 3:
                os.dup2(fd, 3)
                os.close(fd)
            os.environ["LISTEN_FDS"] = "1"
            os.environ["LISTEN_PID"] = str(os.getpid())
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)

        def alone_as_the_unit():
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)

        if fd is None:
            self.service = subprocess.Popen(command, preexec_fn=alone_as_the_unit, stdin=subprocess.DEVNULL,
                                            stdout=self.log, stderr=self.log, cwd="/")
        else:
            # Descriptor 3 is kept open across the exec (close_fds runs after preexec_fn).
            self.service = subprocess.Popen(command, preexec_fn=as_the_unit, pass_fds=(3,), stdin=subprocess.DEVNULL,
                                            stdout=self.log, stderr=self.log, cwd="/")
        with open(os.path.join(self.folder, "service.pid"), "w") as f:
            f.write(f"{self.service.pid}\n")
        self.say(f"started service: pid {self.service.pid}: {' '.join(command)}")

    def stop_service(self):
        if self.service is None:
            return
        self.service.terminate()
        try:
            status = self.service.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.service.kill()
            status = self.service.wait()
        self.say(f"stopped service: pid {self.service.pid}, status {status}")
        self.service = None
        os.unlink(os.path.join(self.folder, "service.pid"))
        run_hooks(*self.stop_hooks, self.say)

    def reap_service(self):
        """A service that exited on its own: said, forgotten, and its ExecStopPost lines run."""
        if self.service is not None and self.service.poll() is not None:
            self.say(f"service exited: pid {self.service.pid}, status {self.service.returncode}")
            self.service = None
            os.unlink(os.path.join(self.folder, "service.pid"))
            run_hooks(*self.stop_hooks, self.say)

    def run(self):
        signal.signal(signal.SIGUSR1, lambda *_: self.pending.append("try-restart"))
        signal.signal(signal.SIGTERM, lambda *_: self.pending.append("stop"))
        if self.socket_path == "-":
            return self.run_alone()
        self.listen()
        with open(os.path.join(self.folder, "stand-in.pid"), "w") as f:
            f.write(f"{os.getpid()}\n")
        while True:
            while self.pending:
                request = self.pending.pop(0)
                if request == "stop":
                    self.stop_service()
                    self.listener.close()
                    os.unlink(self.socket_path)
                    os.unlink(os.path.join(self.folder, "stand-in.pid"))
                    self.say("stopped socket")
                    return
                if request == "try-restart" and self.service is not None:
                    self.stop_service()
                    self.start_service()
            self.reap_service()
            try:
                readable, _, _ = select.select([self.listener] if self.service is None else [], [], [], 0.05)
            except InterruptedError:
                continue
            if readable and self.service is None:
                self.start_service()


    def run_alone(self):
        """A service with no socket: started now, stopped at SIGTERM (its ExecStopPost lines run either way)."""
        with open(os.path.join(self.folder, "stand-in.pid"), "w") as f:
            f.write(f"{os.getpid()}\n")
        self.start_service()
        while "stop" not in self.pending:
            self.reap_service()
            time.sleep(0.05)
        self.stop_service()
        os.unlink(os.path.join(self.folder, "stand-in.pid"))
        self.say("stopped")


def main():
    arguments = sys.argv[1:]
    extra = []
    if "--" in arguments:
        extra = arguments[arguments.index("--") + 1:]
        arguments = arguments[:arguments.index("--")]
    if len(arguments) != 3:
        raise SystemExit(__doc__)
    StandIn(arguments[0], arguments[1], arguments[2], extra).run()


if __name__ == "__main__":
    main()
