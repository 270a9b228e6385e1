package live

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sigs.k8s.io/json"

	"github.com/nodeplan/nodeplan/planview"
)

// maxUnknown is how many unknown fields a warning names.
const maxUnknown = 3

// unknownFields gathers the fields of the listed objects that their Go
// types lack, for one warning as kube.Load words it. The zero
// unknownFields is empty.
type unknownFields struct {
	n        int
	examples []string
}

// add records the strict decoding errors of one page of kind; name
// gives the key of the page's item i.
func (u *unknownFields) add(kind string, errs []error, name func(i int) objectKey) {
	for _, err := range errs {
		if u.n++; len(u.examples) < maxUnknown {
			u.examples = append(u.examples, describe(kind, err, name))
		}
	}
}

// describe names the object and field of a strict error whose path is
// items[i].field.
func describe(kind string, err error, name func(i int) objectKey) string {
	fe, ok := err.(json.FieldError)
	if !ok {
		return err.Error()
	}
	rest, ok := strings.CutPrefix(fe.FieldPath(), "items[")
	idx, field, ok2 := strings.Cut(rest, "].")
	i, err2 := strconv.Atoi(idx)
	if !ok || !ok2 || err2 != nil {
		return kind + " " + fe.FieldPath()
	}
	k := name(i)
	if k.namespace != "" {
		return fmt.Sprintf("%s %s/%s %s", kind, k.namespace, k.name, field)
	}
	return fmt.Sprintf("%s %s %s", kind, k.name, field)
}

// clone returns a copy of u that later adds do not change.
func (u *unknownFields) clone() unknownFields {
	return unknownFields{n: u.n, examples: slices.Clone(u.examples)}
}

// lines returns the warning, if any field was unknown.
func (u *unknownFields) lines() []string {
	if u.n == 0 {
		return nil
	}
	list := strings.Join(u.examples, ", ")
	if rest := u.n - len(u.examples); rest > 0 {
		list += fmt.Sprintf(", and %d more", rest)
	}
	return []string{fmt.Sprintf("ignored %s, which the API types nodeplan is built with lack (a newer server's fields): %s",
		planview.Count(u.n, "unknown field"), list)}
}

// warnings passes the server's warning headers on to warn, each text
// once. It is safe for concurrent use, as client-go requires.
type warnings struct {
	mu   sync.Mutex
	seen map[string]bool
	warn func(string)
}

func newWarnings(warn func(string)) *warnings {
	return &warnings{seen: map[string]bool{}, warn: warn}
}

// HandleWarningHeader implements rest.WarningHandler.
func (w *warnings) HandleWarningHeader(code int, agent, text string) {
	if code != 299 || text == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.seen[text] {
		w.seen[text] = true
		w.warn("API server: " + text)
	}
}
