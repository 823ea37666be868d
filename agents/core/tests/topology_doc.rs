//! docs/topics.md carries the topology table generated from the code; this fails when
//! the copy is stale (`CHORUS_BLESS=1` rewrites it).

use chorus_core::topology::Topology;

const BEGIN: &str = "<!-- topology:begin -->\n";
const END: &str = "<!-- topology:end -->";

#[test]
fn the_topology_table_in_docs_topics_md_is_the_codes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/topics.md");
    let doc = std::fs::read_to_string(path).expect("read docs/topics.md");
    let start = doc.find(BEGIN).expect("begin marker") + BEGIN.len();
    let end = doc.find(END).expect("end marker");
    let want = Topology::markdown();
    if std::env::var_os("CHORUS_BLESS").is_some() {
        let fresh = format!("{}{want}{}", &doc[..start], &doc[end..]);
        std::fs::write(path, fresh).expect("write docs/topics.md");
        return;
    }
    assert_eq!(
        &doc[start..end],
        want,
        "docs/topics.md is stale: run CHORUS_BLESS=1 cargo test -p chorus-core --test topology_doc"
    );
}
