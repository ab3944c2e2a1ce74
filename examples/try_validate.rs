use mcp_switchboard::*;
use serde_json::{json, Map, Value};
fn deep(n: usize) -> Value {
    let mut v = json!(1);
    for i in 0..n {
        v = if i % 2 == 0 { Value::Array(vec![v]) } else { Value::Object(Map::from_iter([("a".to_string(), v)])) };
    }
    v
}
fn main() {
    let kb: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let h = std::thread::Builder::new().stack_size(kb << 10).spawn(|| {
        let v = Value::Object(Map::from_iter([("a".to_string(), deep(10_000))]));
        for s in [json!({"items": {"$ref": "#"}, "properties": {"a": {"$ref": "#"}}}),
                  json!({"anyOf": [{"type": "integer"}, {"items": {"$ref": "#"}, "properties": {"a": {"$ref": "#"}}}]}),
                  json!({"$defs": {"n": {"anyOf": [{"type":"string"}, {"type":"array", "items": {"$ref": "#/$defs/n"}}, {"type":"object","additionalProperties": {"$ref": "#/$defs/n"}}]}}, "type": "object", "additionalProperties": {"$ref": "#/$defs/n"}})] {
            let e = validate(&s, &v);
            let r = validate_arguments(&s, &v);
            println!("{} {:?} | {}", e.len(), e.first().map(|e| (&e.keyword, e.pointer.len())), r.errors.len());
            std::mem::forget(r);
        }
        std::mem::forget(v);
    }).unwrap();
    println!("{}", h.join().is_ok());
}
