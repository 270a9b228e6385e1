package buffer

import (
	"errors"
	"fmt"
)

// ErrNoRef is wrapped by the error of a buffer with neither
// spec.podTemplateRef nor spec.scalableRef.
var ErrNoRef = errors.New("neither podTemplateRef nor scalableRef is set")

// ErrUnsupportedRef is wrapped by the error of a scalableRef whose API
// group is not apps or whose kind is not Deployment, StatefulSet or
// ReplicaSet.
var ErrUnsupportedRef = errors.New("unsupported scalableRef")

// ErrNotFound is wrapped by the error of a ref whose object does not
// exist.
var ErrNotFound = errors.New("not found")

// RefError is why a buffer's ref does not resolve: it names the buffer
// and the field and wraps ErrNoRef, ErrUnsupportedRef or ErrNotFound.
type RefError struct {
	Buffer string // namespace/name
	Field  string // spec.podTemplateRef, spec.scalableRef.kind, ...
	Detail string
	Err    error
}

// Error returns "capacitybuffer <ns/name> <field>: <detail>: <err>".
func (e *RefError) Error() string {
	return fmt.Sprintf("capacitybuffer %s %s: %s: %v", e.Buffer, e.Field, e.Detail, e.Err)
}

// Unwrap returns the sentinel.
func (e *RefError) Unwrap() error { return e.Err }

// MaxReplicas is the most replicas [Evaluate] resolves a buffer to: each
// replica becomes a pod ([Result.Pods]), and a spec asking for up to
// math.MaxInt32 of them would exhaust memory. It matches the number of
// pending pods package kube expands its workloads into.
const MaxReplicas = 100_000

// ErrTooManyReplicas is wrapped by the error of a buffer whose replicas
// exceed [MaxReplicas].
var ErrTooManyReplicas = errors.New("too many replicas")

// ReplicasError is why a buffer does not resolve although its ref does:
// the field that produced its replica count (spec.replicas,
// spec.percentage or spec.limits.<resource>) asks for more than
// [MaxReplicas]. It wraps [ErrTooManyReplicas].
type ReplicasError struct {
	Buffer   string // namespace/name
	Field    string
	Replicas int64
}

// Error returns "capacitybuffer <ns/name> <field>: <n> replicas: too many
// replicas (limit <MaxReplicas>)".
func (e *ReplicasError) Error() string {
	return fmt.Sprintf("capacitybuffer %s %s: %d replicas: %v (limit %d)", e.Buffer, e.Field, e.Replicas, ErrTooManyReplicas, MaxReplicas)
}

// Unwrap returns [ErrTooManyReplicas].
func (e *ReplicasError) Unwrap() error { return ErrTooManyReplicas }
