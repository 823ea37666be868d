use super::*;

#[test]
fn a_cluster_of_six_nodes_serves_keys_of_every_slot() {
    let cluster = RedisCluster::start();
    for key in ["a", "b", "c", "{t1}:x", "plan_ready"] {
        assert_eq!(cluster.cli(&["SET", key, "v"]), "OK");
        assert_eq!(cluster.cli(&["GET", key]), "v");
    }
    let primaries = cluster
        .nodes()
        .iter()
        .filter(|n| String::from_utf8_lossy(&n.redis_cli(&["ROLE"]).stdout).starts_with("master"))
        .count();
    assert_eq!(primaries, 3);
}
