//! The keywords of one schema object, found in a single pass over its
//! members (looking each one up in the map would hash its name every time,
//! for every value checked).

use serde_json::{Map, Value};

/// The keywords this validator reads, each `None` when absent or not of
/// the right JSON type.
#[derive(Default)]
pub(crate) struct Keywords<'s> {
    /// How many members are keywords read here (of any JSON type).
    pub(crate) count: usize,
    pub(crate) has_id: bool,
    pub(crate) reference: Option<&'s str>,
    pub(crate) dynamic_reference: Option<&'s str>,
    pub(crate) ty: Option<&'s Value>,
    pub(crate) enumeration: Option<&'s [Value]>,
    pub(crate) constant: Option<&'s Value>,
    pub(crate) minimum: Option<&'s Value>,
    pub(crate) maximum: Option<&'s Value>,
    pub(crate) exclusive_minimum: Option<&'s Value>,
    pub(crate) exclusive_maximum: Option<&'s Value>,
    pub(crate) multiple_of: Option<&'s Value>,
    pub(crate) min_length: Option<&'s Value>,
    pub(crate) max_length: Option<&'s Value>,
    pub(crate) pattern: Option<&'s str>,
    pub(crate) format: Option<&'s str>,
    pub(crate) prefix_items: Option<&'s [Value]>,
    /// `items` as one schema.
    pub(crate) items: Option<&'s Value>,
    /// `items` as an array (draft 2019 and before).
    pub(crate) items_list: Option<&'s [Value]>,
    pub(crate) additional_items: Option<&'s Value>,
    pub(crate) contains: Option<&'s Value>,
    pub(crate) min_contains: Option<&'s Value>,
    pub(crate) max_contains: Option<&'s Value>,
    pub(crate) min_items: Option<&'s Value>,
    pub(crate) max_items: Option<&'s Value>,
    pub(crate) unique_items: bool,
    pub(crate) properties: Option<&'s Map<String, Value>>,
    pub(crate) pattern_properties: Option<&'s Map<String, Value>>,
    pub(crate) additional_properties: Option<&'s Value>,
    pub(crate) required: Option<&'s [Value]>,
    pub(crate) dependent_required: Option<&'s Map<String, Value>>,
    pub(crate) dependent_schemas: Option<&'s Map<String, Value>>,
    pub(crate) dependencies: Option<&'s Map<String, Value>>,
    pub(crate) property_names: Option<&'s Value>,
    pub(crate) min_properties: Option<&'s Value>,
    pub(crate) max_properties: Option<&'s Value>,
    pub(crate) all_of: Option<&'s [Value]>,
    pub(crate) any_of: Option<&'s [Value]>,
    pub(crate) one_of: Option<&'s [Value]>,
    pub(crate) not: Option<&'s Value>,
    pub(crate) condition: Option<&'s Value>,
    pub(crate) then: Option<&'s Value>,
    pub(crate) otherwise: Option<&'s Value>,
}

impl<'s> Keywords<'s> {
    pub(crate) fn of(m: &'s Map<String, Value>) -> Self {
        let mut k = Keywords::default();
        for (name, v) in m {
            let list = || v.as_array().map(Vec::as_slice);
            let map = || v.as_object();
            match name.as_str() {
                "$id" => k.has_id = v.is_string(),
                "$ref" => k.reference = v.as_str(),
                "$dynamicRef" => k.dynamic_reference = v.as_str(),
                "type" => k.ty = Some(v),
                "enum" => k.enumeration = list(),
                "const" => k.constant = Some(v),
                "minimum" => k.minimum = Some(v),
                "maximum" => k.maximum = Some(v),
                "exclusiveMinimum" => k.exclusive_minimum = Some(v),
                "exclusiveMaximum" => k.exclusive_maximum = Some(v),
                "multipleOf" => k.multiple_of = Some(v),
                "minLength" => k.min_length = Some(v),
                "maxLength" => k.max_length = Some(v),
                "pattern" => k.pattern = v.as_str(),
                "format" => k.format = v.as_str(),
                "prefixItems" => k.prefix_items = list(),
                "items" => match v {
                    Value::Array(a) => k.items_list = Some(a),
                    other => k.items = Some(other),
                },
                "additionalItems" => k.additional_items = Some(v),
                "contains" => k.contains = Some(v),
                "minContains" => k.min_contains = Some(v),
                "maxContains" => k.max_contains = Some(v),
                "minItems" => k.min_items = Some(v),
                "maxItems" => k.max_items = Some(v),
                "uniqueItems" => k.unique_items = v == &Value::Bool(true),
                "properties" => k.properties = map(),
                "patternProperties" => k.pattern_properties = map(),
                "additionalProperties" => k.additional_properties = Some(v),
                "required" => k.required = list(),
                "dependentRequired" => k.dependent_required = map(),
                "dependentSchemas" => k.dependent_schemas = map(),
                "dependencies" => k.dependencies = map(),
                "propertyNames" => k.property_names = Some(v),
                "minProperties" => k.min_properties = Some(v),
                "maxProperties" => k.max_properties = Some(v),
                "allOf" => k.all_of = list(),
                "anyOf" => k.any_of = list(),
                "oneOf" => k.one_of = list(),
                "not" => k.not = Some(v),
                "if" => k.condition = Some(v),
                "then" => k.then = Some(v),
                "else" => k.otherwise = Some(v),
                _ => continue,
            }
            k.count += 1;
        }
        k
    }

    /// `prefixItems`, or the array form of `items`, and the schema for the
    /// items after them.
    pub(crate) fn item_schemas(&self) -> (&'s [Value], Option<&'s Value>) {
        match (self.prefix_items, self.items_list) {
            (Some(p), _) => (p, self.items),
            (None, Some(p)) => (p, self.additional_items),
            (None, None) => (&[], self.items),
        }
    }
}
