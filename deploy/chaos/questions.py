"""Questions under chaos. The driver watches `clarification_needed` — its Pub/Sub channel,
and its stream for whatever went out while the driver was not subscribed (Redis killed,
a connection lost) — answers every question of a task it expects to ask, alternately by
`XADD` and by `PUBLISH` on `clarification_answer` (a bare `{"task_id", "answer"}`), and
sees each answer taken: the Chief passes a settling answer on to the Planner as an
envelope on the `clarification_answer` stream. An `XADD` answer is durable and sent once;
a `PUBLISH` heard by no Chief (killed, restarting, Redis away) is lost, as Pub/Sub keeps
nothing, so it is sent again, as a client would, until it is taken or the task has its
report. To answer while processes are killed, half the asked tasks have a role killed
(-9) and restarted between their question and its answer: the Chief (which takes the
answer) or the Planner (which asked and plans once it is answered), so an answer is
sent while its taker is starting, and a question is resumed by another process. With
`bus.partitions` = N > 1, `clarification_needed` is N streams, each mirrored on the
channel of its own name: the driver subscribes to every one and reads every one (the
answers' topic, `clarification_answer`, keeps its one stream)."""

import json
import queue
import threading
import time

import redis

import partitions
import tasks
from redis_client import fields

QUESTIONS = "clarification_needed"
ANSWERS = "clarification_answer"


class Listener(threading.Thread):
    """SUBSCRIBE clarification_needed on its own connection, subscribing again after
    every connection loss (on a Cluster, on the next node: a PUBLISH reaches every
    node); `gap` is set each time a subscription is confirmed (what went out before it
    is read from the stream)."""

    def __init__(self, ports, channels):
        super().__init__(name="questions", daemon=True)
        self.ports = list(ports)
        self.channels = list(channels)
        self.turn = 0
        self.inbox = queue.Queue()
        self.halt = threading.Event()
        self.gap = threading.Event()
        self.subscribed = threading.Event()
        self.subscriptions = 0

    def run(self):
        while not self.halt.is_set():
            port = self.ports[self.turn % len(self.ports)]
            client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=5.0,
                                 socket_connect_timeout=1.0)
            ps = client.pubsub()
            try:
                ps.subscribe(*self.channels)
                confirmed = 0
                while not self.halt.is_set():
                    m = ps.get_message(timeout=0.2)
                    if m is None:
                        continue
                    if m["type"] == "subscribe":
                        # Subscribed once every channel is confirmed.
                        confirmed += 1
                        if confirmed < len(self.channels):
                            continue
                        self.subscriptions += 1
                        self.gap.set()
                        self.subscribed.set()
                    elif m["type"] == "message":
                        self.inbox.put(m["data"])
            except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, OSError):
                self.turn += 1
                time.sleep(0.1)
            finally:
                try:
                    ps.close()
                    client.close()
                except Exception:  # noqa: BLE001 - the connection is gone anyway
                    pass


class Asker:
    """The driver's side of every question: what it expects, what it saw, what it
    answered and what Chorus took."""

    RESEND_S = 2.0  # a PUBLISH answer heard but not taken within this is sent again
    UNHEARD_S = 0.3  # a PUBLISH heard by no Chief is sent again after this
    STREAM_EVERY_S = 1.0  # the stream is read this often besides after each (re)subscription

    # Which of the asked tasks (in the order their first question came) have a role
    # killed just before the answer: by task number modulo 8, with the answer's way.
    KILL_BEFORE = {1: "chief", 2: "chief", 5: "planner", 6: "planner"}

    def __init__(self, r, ports, kill=None, partitions_n=1):
        self.r = r
        self.kill = kill  # kill(role): SIGKILL and restart; None: no kills here
        self.questions = partitions.streams(QUESTIONS, partitions_n)
        self.listener = Listener(ports, self.questions)
        self.expect = {}  # task id -> the answer it gets
        self.seen = {}  # task id -> {question number: (seen at, via, payload)}
        self.sent = {}  # task id -> {"how", "times": [..], "next", "number"}
        self.taken = {}  # task id -> {question number: taken at}
        self.q_last = {stream: "0-0" for stream in self.questions}
        self.a_last = "0-0"
        self.next_stream = 0.0
        self.count = {"pubsub": 0, "stream": 0, "xadd": 0, "publish": 0, "unheard": 0,
                      "resent": 0, "killed": 0}

    def start(self, within=15.0):
        self.listener.start()
        if not self.listener.subscribed.wait(within):
            raise SystemExit("chaos: could not SUBSCRIBE %s" % QUESTIONS)

    def stop(self):
        self.listener.halt.set()

    def expect_question(self, task_id, answer):
        self.expect[task_id] = answer

    def poll(self, reports):
        """Takes in new questions (channel, then stream), answers them, reads which
        answers were taken, and sends again PUBLISH answers not taken. `reports`: task
        id -> its reports so far (a task with one needs nothing more)."""
        now = time.monotonic()
        while True:
            try:
                raw = self.listener.inbox.get_nowait()
            except queue.Empty:
                break
            self._question(raw, "pubsub", now)
        if self.listener.gap.is_set() or now >= self.next_stream:
            self.listener.gap.clear()
            self.next_stream = now + self.STREAM_EVERY_S
            for stream in self.questions:
                self.q_last[stream] = self._read(stream, self.q_last[stream],
                                                 lambda raw: self._question(raw, "stream", now))
        self.a_last = self._read(ANSWERS, self.a_last, lambda raw: self._taken(raw, now))
        for tid, s in self.sent.items():
            if s["how"] == "publish" and now >= s["next"] and tid not in reports \
                    and s["number"] not in self.taken.get(tid, {}):
                self.count["resent"] += 1
                self._send(tid, s["number"], now)

    def _read(self, stream, last, handle):
        while True:
            batch = self.r.cmd("XRANGE", stream, "(" + last, "+", "COUNT", "1000")
            if not batch:
                return last
            for entry_id, flat in batch:
                last = entry_id.decode()
                handle(fields(flat).get("data", b"{}"))

    def _question(self, raw, via, now):
        try:
            msg = json.loads(raw)
            tid, number = msg["task_id"], int(msg["payload"].get("number", 1))
        except (ValueError, KeyError, TypeError, AttributeError):
            return
        asked = self.seen.setdefault(tid, {})
        if number in asked:
            return
        asked[number] = (now, via, msg["payload"])
        self.count[via] += 1
        if tid in self.expect:
            self._send(tid, number, now)

    def _send(self, tid, number, now):
        s = self.sent.get(tid)
        if s is None:
            # Alternate: every other asked task is answered by XADD, the others by PUBLISH.
            k = len(self.sent)
            how = "xadd" if k % 2 == 0 else "publish"
            s = self.sent[tid] = {"how": how, "times": [], "next": 0.0, "number": number,
                                  "killed": None}
            role = self.KILL_BEFORE.get(k % 8)
            if role and self.kill:
                self.kill(role)
                s["killed"] = role
                self.count["killed"] += 1
                now = time.monotonic()
        s["number"] = max(s["number"], number)
        data = tasks.bare_answer(tid, self.expect[tid])
        s["times"].append(now)
        self.count[s["how"]] += 1
        if s["how"] == "xadd":
            self.r.xadd(ANSWERS, data)
            return
        heard = self.r.publish(ANSWERS, data)
        if not heard:
            self.count["unheard"] += 1
        s["next"] = time.monotonic() + (self.RESEND_S if heard else self.UNHEARD_S)

    def _taken(self, raw, now):
        try:
            msg = json.loads(raw)
            payload = msg.get("payload")
        except ValueError:
            return
        if not isinstance(payload, dict):
            return  # a bare answer (ours): the Chief's envelope says it was taken
        number = payload.get("question") or 1
        self.taken.setdefault(msg.get("task_id"), {}).setdefault(number, time.monotonic())

    # What the verdict needs.

    def asked(self, tid):
        return self.seen.get(tid, {})

    def last_answer_at(self, tid):
        """When the task's last answer was sent (monotonic), or None."""
        s = self.sent.get(tid)
        return s["times"][-1] if s else None

    def story(self, tid):
        """One line on the task's questions, for a lost or wrong task."""
        asked = self.seen.get(tid, {})
        if not asked:
            return "no question seen"
        s = self.sent.get(tid)
        parts = ["questions %s (via %s)" % (sorted(asked), ",".join(v for _, v, _ in asked.values()))]
        if s:
            parts.append("answered %r by %s x%d%s" % (self.expect[tid], s["how"], len(s["times"]),
                                                     ", %s killed first" % s["killed"] if s["killed"] else ""))
        parts.append("taken %s" % sorted(self.taken.get(tid, {})))
        return "; ".join(parts)

    def summary(self):
        """(asked tasks, answered tasks: answers Chorus took, one line of counts)."""
        waits = sorted(min(t.values()) - min(q for q, _, _ in self.seen[tid].values())
                       for tid, t in self.taken.items() if tid in self.seen)
        pct = (lambda q: waits[min(len(waits) - 1, int(q * len(waits)))] * 1000) if waits else (lambda q: 0)
        line = ("questions seen first on the channel %d, only on the stream %d; answers sent by "
                "XADD %d, by PUBLISH %d (heard by no Chief %d, sent again %d); a role killed "
                "before the answer %d times; question to answer taken p50 %.0f ms, max %.0f ms; "
                "subscriptions %d"
                % (self.count["pubsub"], self.count["stream"], self.count["xadd"],
                   self.count["publish"], self.count["unheard"], self.count["resent"],
                   self.count["killed"], pct(0.5), waits[-1] * 1000 if waits else 0,
                   self.listener.subscriptions))
        return len(self.seen), len(self.taken), line
