"""Partitioned topics (`bus.partitions`, docs/bus.md "Partitioned topics") as the driver
needs them: the streams (and Pub/Sub channels) a topic is spread over, named as
`chorus_bus::keys` names them (`partition_tag`, `partition_stream`)."""

from redis.crc import key_slot

# Topics that keep one stream whatever bus.partitions is (keys::is_partitioned).
UNPARTITIONED = {"task_available", "clarification_answer", "task_cancel", "final_report",
                 "dead_letter", "agent_heartbeat"}


def partition_tag(k, n):
    """`p<k>of<n>.<i>`: the first i whose slot lies in the middle half of the k-th of n
    equal slot ranges."""
    n = max(n, 1)
    width = 16384.0 / n
    lo, hi = width * k + width / 4.0, width * k + width * 3.0 / 4.0
    i = 0
    while True:
        tag = "p%dof%d.%d" % (k, n, i)
        if lo <= key_slot(tag.encode()) < hi:
            return tag
        i += 1


def streams(topic, n):
    """Every stream of `topic` spread over `n` partitions, by partition."""
    if n <= 1 or topic in UNPARTITIONED:
        return [topic]
    return ["%s:{%s}" % (topic, partition_tag(k, n)) for k in range(n)]
