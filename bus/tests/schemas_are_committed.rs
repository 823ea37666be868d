//! The committed JSON Schemas in `docs/schemas/` match the payload types.

use std::path::PathBuf;

#[test]
fn committed_schemas_match_the_payload_types() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/schemas");
    let mut stale = Vec::new();
    for (name, schema) in chorus_bus::schema::schemas() {
        let path = dir.join(format!("{name}.json"));
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != chorus_bus::schema::schema_text(&schema) {
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "docs/schemas is out of date for {stale:?}; regenerate with \
         `cargo run -p chorus-bus --bin chorus-schemas` and commit the files"
    );
}
