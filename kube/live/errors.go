package live

import (
	"errors"
	"fmt"
)

// ErrNoKarpenter is the error [Read] wraps when the API server does not
// serve karpenter.sh/v1 NodePools or NodeClaims: Karpenter, at v1, is not
// installed, and there is nothing to plan with.
var ErrNoKarpenter = errors.New("Karpenter is not installed")

// ErrInvalidOptions is the error [Read] wraps when its [Options] cannot
// be read as asked: a namespace that is not a DNS-1123 label, or a
// negative PageSize. Nothing is requested from the server then.
var ErrInvalidOptions = errors.New("invalid options")

// ListError is a list request [Read] could not make or the server
// refused: unreachable, Unauthorized, Forbidden, a timeout. Err is the
// transport's error or the server's (a *k8s.io/apimachinery/pkg/api/errors.StatusError
// carrying its reason and message), so apierrors.IsForbidden(err) and
// errors.As hold on a *ListError.
type ListError struct {
	// Resource is the resource listed, with its group as RBAC names it:
	// "pods", "nodepools.karpenter.sh".
	Resource string
	// Namespace is the namespace listed, "" for all (or cluster-scoped).
	Namespace string
	Err       error
}

func (e *ListError) Error() string {
	where := "every namespace"
	if e.Namespace != "" {
		where = "namespace " + e.Namespace
	}
	return fmt.Sprintf("listing %s (%s): %v", e.Resource, where, e.Err)
}

func (e *ListError) Unwrap() error { return e.Err }
