package live

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/rest"
)

// fakeAPI serves list requests as an API server does, from objects held
// per collection path (without namespace): pages by limit and continue,
// a namespace in the path and the fieldSelector spec.nodeName= or != on
// pods. A collection with a status code in fail answers that code with a
// metav1.Status; any other collection is an empty list. It records every
// request's path and query.
type fakeAPI struct {
	objects map[string][]map[string]any
	fail    map[string]int
	header  string // a Warning header sent with every response
	// expire answers this many requests with a continue token 410
	// Expired, as the API server does once etcd compacted past it.
	expire int

	mu       sync.Mutex
	requests []string
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.requests = append(f.requests, r.URL.Path+"?"+r.URL.RawQuery)
	f.mu.Unlock()
	path, ns := splitNamespace(r.URL.Path)
	if f.header != "" {
		w.Header().Set("Warning", f.header)
	}
	if code, ok := f.fail[path]; ok {
		writeStatus(w, code, path)
		return
	}
	if f.expire > 0 && r.URL.Query().Get("continue") != "" {
		f.expire--
		writeStatus(w, http.StatusGone, path)
		return
	}
	items := selectItems(f.objects[path], ns, r.URL.Query().Get("fieldSelector"))
	from, _ := strconv.Atoi(r.URL.Query().Get("continue"))
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	to := len(items)
	if limit > 0 && from+limit < to {
		to = from + limit
	}
	meta := map[string]any{"resourceVersion": "1"}
	if to < len(items) {
		meta["continue"] = strconv.Itoa(to)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"apiVersion": "v1", "kind": "List", "metadata": meta, "items": items[from:to]})
}

// splitNamespace takes /namespaces/NS out of a collection path.
func splitNamespace(p string) (path, ns string) {
	before, after, ok := strings.Cut(p, "/namespaces/")
	if !ok {
		return p, ""
	}
	ns, res, _ := strings.Cut(after, "/")
	return before + "/" + res, ns
}

func selectItems(items []map[string]any, ns, fieldSelector string) []map[string]any {
	var out []map[string]any
	for _, it := range items {
		meta, _ := it["metadata"].(map[string]any)
		spec, _ := it["spec"].(map[string]any)
		nodeName, _ := spec["nodeName"].(string)
		switch {
		case ns != "" && meta["namespace"] != ns:
		case fieldSelector == "spec.nodeName=" && nodeName != "":
		case fieldSelector == "spec.nodeName!=" && nodeName == "":
		default:
			out = append(out, it)
		}
	}
	return out
}

func writeStatus(w http.ResponseWriter, code int, path string) {
	reason := map[int]string{401: "Unauthorized", 403: "Forbidden", 404: "NotFound", 410: "Expired", 500: "InternalError"}[code]
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]any{"apiVersion": "v1", "kind": "Status", "status": "Failure", "code": code, "reason": reason,
		"message": fmt.Sprintf("the fake says %s to %s", reason, path)})
}

// serve starts f and returns a client configuration for it.
func serve(t *testing.T, f *fakeAPI) *rest.Config {
	t.Helper()
	s := httptest.NewServer(f)
	t.Cleanup(s.Close)
	return &rest.Config{Host: s.URL}
}

// obj is a minimal object of a list.
func obj(ns, name string, extra map[string]any) map[string]any {
	o := map[string]any{"metadata": map[string]any{"namespace": ns, "name": name}}
	for k, v := range extra {
		o[k] = v
	}
	return o
}
