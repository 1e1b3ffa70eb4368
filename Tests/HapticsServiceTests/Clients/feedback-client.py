#!/usr/bin/python3
"""A real feedbackd client driven by the Swift tests (Tests/HapticsTestSupport/FeedbackClient.swift).

It reads one JSON command per line on standard input and answers each with one JSON line on
standard output. Method calls go through Gio's GDBus, so the tests see the exact D-Bus error
names a client sees; libfeedback is used as apps use it, through GObject introspection (`Lfb`).
The bus is the one in DBUS_SESSION_BUS_ADDRESS. Nothing is printed but the answers.
"""

import json
import os
import sys
import time

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "org.sigxcpu.Feedback"
PATH = "/org/sigxcpu/Feedback"
CONTEXT = GLib.MainContext.default()


def plain(value):
    """A GVariant's value as JSON-serialisable Python."""
    if isinstance(value, GLib.Variant):
        value = value.unpack()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def remote_error(error):
    name = Gio.DBusError.get_remote_error(error) or error.domain
    message = error.message
    prefix = f"GDBus.Error:{name}: "
    return {"error": name, "message": message[len(prefix):] if message.startswith(prefix) else message}


def iterate_until(condition, timeout):
    """Runs the main context until condition() holds or timeout seconds pass."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        if not CONTEXT.iteration(False):
            time.sleep(0.002)  # nothing pending: poll again shortly rather than spin
    return True


class Connection:
    """A connection of its own to the bus: one client, with the signals it has received."""

    def __init__(self, watch=True):
        address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        self.bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
        self.bus.set_exit_on_close(False)
        self.signals = []
        if watch:
            self.bus.signal_subscribe(None, None, None, PATH, None, Gio.DBusSignalFlags.NONE, self.on_signal)

    def on_signal(self, _bus, _sender, _path, interface, member, parameters):
        self.signals.append({"interface": interface, "member": member, "args": plain(parameters), "at": time.monotonic()})

    def call(self, method, signature, args, timeout_ms, destination=NAME, path=PATH):
        interface, member = method.rsplit(".", 1)
        parameters = GLib.Variant.parse(GLib.VariantType.new(signature), args, None, None) if signature else None
        try:
            reply = self.bus.call_sync(destination, path, interface, member, parameters, None, Gio.DBusCallFlags.NONE, timeout_ms, None)
        except GLib.Error as error:
            return remote_error(error)
        return {"ok": plain(reply)}


connections = {}
events = {}


def connection(command):
    return connections[command.get("conn", "main")]


def matches(signal, member, args):
    return signal["member"] == member and signal["args"][: len(args)] == args


def op_connect(command):
    connections[command["conn"]] = Connection(watch=command.get("watch", True))
    return {"ok": connections[command["conn"]].bus.get_unique_name()}


def op_close(command):
    conn = connections.pop(command["conn"])
    conn.bus.close_sync(None)
    return {"ok": True}


def op_call(command):
    return connection(command).call(command["method"], command.get("signature"), command.get("args", "()"), command.get("timeout_ms", 10000))


def op_wait_signal(command):
    conn = connection(command)
    member, args = command["member"], command.get("args", [])
    found = iterate_until(lambda: any(matches(s, member, args) for s in conn.signals), command.get("timeout", 10))
    if not found:
        return {"timeout": True}
    signal = next(s for s in conn.signals if matches(s, member, args))
    return {"ok": signal["args"]}


def op_signals(command):
    """Every signal received so far, after running the main loop `settle` seconds more."""
    conn = connection(command)
    iterate_until(lambda: False, command.get("settle", 0))
    while CONTEXT.iteration(False):  # what has arrived meanwhile
        pass
    received = [{"member": s["member"], "args": s["args"]} for s in conn.signals]
    if command.get("clear", True):
        conn.signals.clear()
    return {"ok": received}


def op_flood(command):
    """`count` TriggerFeedback calls, at most `window` outstanding: answers counted by kind."""
    conn = connection(command)
    parameters = GLib.Variant("(ssa{sv}i)", (command["app"], command["event"], {}, command.get("timeout", 0)))
    result = {"ids": 0, "errors": {}, "first_error": None, "last_id": None}
    state = {"sent": 0, "answered": 0}

    def done(bus, task, _data):
        state["answered"] += 1
        try:
            reply = bus.call_finish(task)
            result["ids"] += 1
            result["last_id"] = reply.unpack()[0]
        except GLib.Error as error:
            answer = remote_error(error)
            result["errors"][answer["error"]] = result["errors"].get(answer["error"], 0) + 1
            result["first_error"] = result["first_error"] or answer["message"]

    count, window = command["count"], command.get("window", 500)
    deadline = time.monotonic() + command.get("time_limit", 120)
    while state["answered"] < count and time.monotonic() < deadline:
        while state["sent"] < count and state["sent"] - state["answered"] < window:
            conn.bus.call(NAME, PATH, NAME, "TriggerFeedback", parameters, None, Gio.DBusCallFlags.NONE, 30000, None, done, None)
            state["sent"] += 1
        CONTEXT.iteration(True)
    result["sent"], result["answered"] = state["sent"], state["answered"]
    return {"ok": result}


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def op_load(command):
    """`clients` connections each calling TriggerFeedback `rate` times a second for `seconds`;
    the main connection counts FeedbackEnded per id; the daemon's RSS is sampled every second."""
    clients = [Connection(watch=False) for _ in range(command["clients"])]
    main = connection(command)
    main.signals.clear()
    rate, seconds, pid = command["rate"], command["seconds"], command.get("pid")
    parameters = GLib.Variant("(ssa{sv}i)", (command["app"], command["event"], {}, -1))
    state = {"sent": 0, "answered": 0, "ids": [], "errors": {}, "rss": []}

    def done(bus, task, _data):
        state["answered"] += 1
        try:
            state["ids"].append(bus.call_finish(task).unpack()[0])
        except GLib.Error as error:
            name = remote_error(error)["error"]
            state["errors"][name] = state["errors"].get(name, 0) + 1

    start = time.monotonic()
    per_client = int(rate * seconds)
    sent = [0] * len(clients)
    next_sample = start
    # Each client sends on its own schedule (i / rate seconds after the start for call i), so
    # the load is 20 steady streams, not bursts.
    while min(sent) < per_client:
        now = time.monotonic()
        for index, client in enumerate(clients):
            due = min(per_client, int((now - start) * rate) + 1)
            while sent[index] < due:
                client.bus.call(NAME, PATH, NAME, "TriggerFeedback", parameters, None, Gio.DBusCallFlags.NONE, 30000, None, done, None)
                sent[index] += 1
                state["sent"] += 1
        if pid and now >= next_sample:
            state["rss"].append(rss_kib(pid))
            next_sample += 1
        while CONTEXT.iteration(False):
            pass
        time.sleep(0.002)  # the next call is due in 1/rate s: yield the core meanwhile
    total = state["sent"]
    iterate_until(lambda: state["answered"] >= total, 60)
    ids = set(state["ids"])
    ended = lambda: {s["args"][0] for s in main.signals if s["member"] == "FeedbackEnded"} >= ids
    iterate_until(ended, command.get("settle", 30))
    iterate_until(lambda: False, 0.5)  # a duplicate FeedbackEnded would arrive right after the first
    if pid:
        state["rss"].append(rss_kib(pid))
    counts = {}
    for s in main.signals:
        if s["member"] == "FeedbackEnded":
            counts[s["args"][0]] = counts.get(s["args"][0], 0) + 1
    for client in clients:
        client.bus.close_sync(None)
    return {
        "ok": {
            "sent": total,
            "answered": state["answered"],
            "ids": len(state["ids"]),
            "distinct_ids": len(ids),
            "errors": state["errors"],
            "ended_once": sum(1 for i in ids if counts.get(i) == 1),
            "ended_never": sum(1 for i in ids if i not in counts),
            "ended_twice_or_more": sum(1 for i in ids if counts.get(i, 0) > 1),
            "ended_unknown_ids": sum(1 for i in counts if i not in ids),
            "rss_kib": state["rss"],
        }
    }


def op_timed_trigger(command):
    """TriggerFeedback, stamped with CLOCK_MONOTONIC (ns) just before the call is sent."""
    conn = connection(command)
    parameters = GLib.Variant("(ssa{sv}i)", (command["app"], command["event"], {}, command.get("timeout", -1)))
    sent = time.monotonic_ns()
    try:
        reply = conn.bus.call_sync(NAME, PATH, NAME, "TriggerFeedback", parameters, None, Gio.DBusCallFlags.NONE, 10000, None)
    except GLib.Error as error:
        return remote_error(error)
    return {"ok": reply.unpack()[0], "sent_ns": sent}


def op_has_owner(command):
    reply = connection(command).bus.call_sync(
        "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", GLib.Variant("(s)", (command.get("name", NAME),)),
        None, Gio.DBusCallFlags.NONE, 10000, None)
    return {"ok": reply.unpack()[0]}


# libfeedback, as an app uses it.
def lfb():
    gi.require_version("Lfb", "0.0")
    from gi.repository import Lfb

    return Lfb


def op_lfb_init(command):
    return {"ok": lfb().init(command["app"])}


def op_lfb_uninit(_command):
    lfb().uninit()
    return {"ok": True}


def op_lfb_trigger(command):
    Lfb = lfb()
    event = Lfb.Event.new(command["event"])
    event.set_timeout(command.get("timeout", -1))
    if "profile" in command:
        event.set_feedback_profile(command["profile"])
    ended = []
    event.connect("feedback-ended", lambda e: ended.append(int(e.get_end_reason())))
    events[command["name"]] = (event, ended)
    try:
        return {"ok": event.trigger_feedback()}
    except GLib.Error as error:
        return remote_error(error)


def op_lfb_wait_ended(command):
    _event, ended = events[command["name"]]
    if not iterate_until(lambda: ended, command.get("timeout", 10)):
        return {"timeout": True}
    iterate_until(lambda: False, command.get("settle", 0))
    return {"ok": ended}


def op_lfb_end(command):
    event, _ended = events[command["name"]]
    try:
        return {"ok": event.end_feedback()}
    except GLib.Error as error:
        return remote_error(error)


def op_lfb_get_profile(_command):
    return {"ok": lfb().get_feedback_profile()}


def op_lfb_set_profile(command):
    lfb().set_feedback_profile(command["profile"])
    # The setter is asynchronous in libfeedback: its proxy writes the property in the
    # background; run the loop until the daemon has announced it (or a second has passed).
    conn = connections["main"]
    announced = lambda s: s["member"] == "PropertiesChanged" and s["args"][1].get("Profile") == command["profile"]
    iterate_until(lambda: any(announced(s) for s in conn.signals), command.get("timeout", 1))
    return {"ok": True}


def main():
    connections["main"] = Connection()
    for line in sys.stdin:
        command = json.loads(line)
        op = command["op"]
        if op == "exit":
            break
        try:
            answer = globals()["op_" + op](command)
        except Exception as error:  # a broken command is the test's bug: say which
            answer = {"exception": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
