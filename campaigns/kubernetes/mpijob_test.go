// Package kubernetes holds gomb's Kubernetes MPI Operator manifest and the
// test that checks it against the operator's published MPIJob schema.
package kubernetes

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

// mpiJobSchema compiles the v2beta1 openAPIV3Schema of the MPIJob CRD,
// made strict as the API server's strict field validation (kubectl
// --validate=strict) is: an object schema with properties accepts no other
// field, unless it preserves unknown fields.
func mpiJobSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/kubeflow.org_mpijobs.yaml.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	crdYAML, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	crdJSON, err := yaml.YAMLToJSON(crdYAML)
	if err != nil {
		t.Fatal(err)
	}
	crd, err := jsonschema.UnmarshalJSON(bytes.NewReader(crdJSON))
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	for _, v := range dig(t, crd, "spec", "versions").([]any) {
		if v.(map[string]any)["name"] == "v2beta1" {
			schema = dig(t, v, "schema", "openAPIV3Schema")
		}
	}
	if schema == nil {
		t.Fatal("the CRD has no v2beta1 schema")
	}
	strict(schema)
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mpijob.json", schema); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mpijob.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func dig(t *testing.T, v any, path ...string) any {
	t.Helper()
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("no %s in the CRD", strings.Join(path, "."))
		}
		v = m[k]
	}
	return v
}

// strict closes every object schema that lists its properties.
func strict(v any) {
	switch s := v.(type) {
	case map[string]any:
		_, hasProps := s["properties"]
		_, hasAdditional := s["additionalProperties"]
		if hasProps && !hasAdditional && s["x-kubernetes-preserve-unknown-fields"] != true {
			s["additionalProperties"] = false
		}
		for _, c := range s {
			strict(c)
		}
	case []any:
		for _, c := range s {
			strict(c)
		}
	}
}

func validate(t *testing.T, s *jsonschema.Schema, manifest string) error {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(inst)
}

// TestMPIJobManifest: gomb-mpijob.yaml is a valid v2beta1 MPIJob, and the
// check can fail: a misspelled field, a wrong type, an MPI the operator
// does not know are each refused.
func TestMPIJobManifest(t *testing.T) {
	s := mpiJobSchema(t)
	b, err := os.ReadFile("gomb-mpijob.yaml")
	if err != nil {
		t.Fatal(err)
	}
	manifest := string(b)
	if err := validate(t, s, manifest); err != nil {
		t.Fatalf("gomb-mpijob.yaml: %v", err)
	}
	for _, c := range []struct{ name, from, to string }{
		{"misspelled field", "slotsPerWorker: 1", "slotsPerWorkr: 1"},
		{"replicas not a number", "replicas: 2", "replicas: two"},
		{"unknown MPI", "mpiImplementation: OpenMPI", "mpiImplementation: LAM"},
		{"misspelled container field", "volumeMounts:", "volumeMount:"},
	} {
		bad := strings.Replace(manifest, c.from, c.to, 1)
		if bad == manifest {
			t.Fatalf("%s: %q is not in the manifest", c.name, c.from)
		}
		if err := validate(t, s, bad); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	// The launcher runs gomb with records and the campaign's labels.
	for _, want := range []string{"- /usr/local/bin/gomb", "- -json", "- -campaign", "- -cell"} {
		if !strings.Contains(manifest, want) {
			t.Errorf("the launcher's command lacks %q", want)
		}
	}
}
