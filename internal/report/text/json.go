package text

import (
	"bytes"
	"encoding"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"sort"
	"strings"
)

// WriteJSON writes v as indented JSON the way encoding/json would, except
// that a float that is not finite (a speed over an empty size band, a
// p-value without enough runs, a size the run lacks) is written as null:
// JSON has no NaN, and encoding/json refuses the whole document for one.
func WriteJSON(w io.Writer, v any) error {
	var raw bytes.Buffer
	if err := encodeFinite(&raw, reflect.ValueOf(v)); err != nil {
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw.Bytes(), "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err := w.Write(out.Bytes())
	return err
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func encodeFinite(b *bytes.Buffer, v reflect.Value) error {
	if !v.IsValid() {
		b.WriteString("null")
		return nil
	}
	t := v.Type()
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) {
		if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return marshalInto(b, v.Interface())
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			b.WriteString("null")
			return nil
		}
		return marshalInto(b, v.Interface())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return encodeFinite(b, v.Elem())
	case reflect.Struct:
		b.WriteByte('{')
		first := true
		if err := encodeFields(b, v, &first); err != nil {
			return err
		}
		b.WriteByte('}')
		return nil
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("null")
			return nil
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return marshalInto(b, v.Interface())
		}
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encodeFinite(b, v.Index(i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		// encoding/json names the keys and sorts them; the values are ours.
		keys := map[string]reflect.Value{}
		for _, k := range v.MapKeys() {
			name, err := json.Marshal(k.Interface())
			if err != nil {
				return err
			}
			s := string(name)
			if k.Kind() == reflect.String || k.Type().Implements(textMarshalerType) {
				_ = json.Unmarshal(name, &s)
			}
			keys[s] = v.MapIndex(k)
		}
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		b.WriteByte('{')
		for i, k := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := marshalInto(b, k); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := encodeFinite(b, keys[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	}
	return marshalInto(b, v.Interface())
}

// encodeFields writes a struct's exported fields as encoding/json does:
// json tags (name, omitempty, "-") and embedded structs flattened.
func encodeFields(b *bytes.Buffer, v reflect.Value, first *bool) error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fv := v.Field(i)
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			if err := encodeFields(b, fv, first); err != nil {
				return err
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if strings.Contains(","+opts+",", ",omitempty,") && isEmpty(fv) {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if !*first {
			b.WriteByte(',')
		}
		*first = false
		if err := marshalInto(b, name); err != nil {
			return err
		}
		b.WriteByte(':')
		if err := encodeFinite(b, fv); err != nil {
			return err
		}
	}
	return nil
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	case reflect.Struct:
		return false
	}
	return v.IsZero()
}

func marshalInto(b *bytes.Buffer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b.Write(data)
	return nil
}
