package kube

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every error about an object that cannot be
// converted: a bad quantity, operator, taint effect or duration.
var ErrInvalid = errors.New("invalid object")

// ErrMalformed is wrapped by every error about a document that is not
// well-formed YAML or JSON, or that has no kind.
var ErrMalformed = errors.New("malformed document")

// ErrNoObjects is wrapped by the error [Load] returns when its sources
// together hold no object: every file empty, comments only, or empty
// lists. Its message names the sources: "no objects in a.yaml, b.yaml".
var ErrNoObjects = errors.New("no objects")

// ErrUnsupportedVersion is wrapped by the error about an object of a kind
// nodeplan reads at an apiVersion it does not read (apps/v1beta2
// Deployment, karpenter.sh/v2 NodePool…); the message lists the versions
// it reads.
var ErrUnsupportedVersion = errors.New("unsupported apiVersion")

// ErrDuplicate is wrapped by the error about a second object of the same
// kind, namespace and name; the message names where the first is.
var ErrDuplicate = errors.New("duplicate")

// ErrOtherRegion is wrapped by the error about a node of a NodePool that
// is in another region than the one a plan is priced for
// ([Cluster.CheckRegion]).
var ErrOtherRegion = errors.New("node in another region")

// ObjectError names the object and field that could not be converted.
// Err is the cause; errors.Is(err, ErrInvalid) holds for every ObjectError.
type ObjectError struct {
	Kind      string // "Pod", "NodePool", ...
	Namespace string // empty for cluster-scoped objects
	Name      string
	Field     string // a JSON path such as "spec.containers[0].resources.requests"
	Err       error
}

// Error formats "Kind namespace/name: field: cause" lazily (without
// the field when it is empty).
func (e *ObjectError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s %s: %v", e.Kind, objectName(e.Namespace, e.Name), e.Err)
	}
	return fmt.Sprintf("%s %s: %s: %v", e.Kind, objectName(e.Namespace, e.Name), e.Field, e.Err)
}

// Unwrap returns ErrInvalid and the cause.
func (e *ObjectError) Unwrap() []error { return []error{ErrInvalid, e.Err} }

// DocumentError names the file and the one-based document index of a
// manifest that could not be loaded; inside a kind List, Item is the
// zero-based item, else -1. Err is an *ObjectError for a document that
// parsed but did not convert, or wraps ErrMalformed.
type DocumentError struct {
	File  string
	Index int
	Item  int
	Err   error
}

// Error formats "file: document N: cause" or "file: document N: items[I]:
// cause" lazily.
func (e *DocumentError) Error() string {
	if e.Item >= 0 {
		return fmt.Sprintf("%s: document %d: items[%d]: %v", e.File, e.Index, e.Item, e.Err)
	}
	return fmt.Sprintf("%s: document %d: %v", e.File, e.Index, e.Err)
}

// Unwrap returns the cause.
func (e *DocumentError) Unwrap() error { return e.Err }

// fieldError is the cause of an ObjectError: the field below the object
// and what is wrong with it; wrap attaches the object.
type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return e.field + ": " + e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }

// atField wraps err with a field path; nested calls build the path outward.
func atField(field string, err error) error {
	if err == nil {
		return nil
	}
	var fe *fieldError
	if errors.As(err, &fe) && fe == err {
		return &fieldError{field: join(field, fe.field), err: fe.err}
	}
	return &fieldError{field: field, err: err}
}

func join(parent, child string) string {
	if child == "" || child[0] == '[' {
		return parent + child
	}
	return parent + "." + child
}

// wrap turns a fieldError (or any error) into an ObjectError for the object.
func wrap(kind, namespace, name string, err error) error {
	if err == nil {
		return nil
	}
	return wrapObject(&ObjectError{Kind: kind, Namespace: namespace, Name: name}, err)
}

// wrapObject completes oe (kind, namespace, name) with err, a fieldError
// or any error, as [wrap] does.
func wrapObject(oe *ObjectError, err error) error {
	if err == nil {
		return nil
	}
	oe.Err = err
	var fe *fieldError
	if errors.As(err, &fe) && fe == err {
		oe.Field, oe.Err = fe.field, fe.err
	}
	return oe
}

func objectName(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}
