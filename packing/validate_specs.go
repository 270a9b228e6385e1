package packing

import (
	"errors"
	"fmt"
)

// MaxWeight is the largest NodePool weight, the maximum of the Karpenter
// NodePool CRD's spec.weight.
const MaxWeight = 100

// ValidateTopologySpreads reports the invalid fields of one pod's topology
// spread constraints by the rules [Problem.Validate] applies to them, the
// API server's: maxSkew at least 1; minDomains not negative, and set (> 0)
// only with DoNotSchedule; no two constraints with the same topologyKey
// and whenUnsatisfiable; valid keys, selector and enums. Each error is a
// *FieldError with an empty Object and a Field relative to the list
// ("[1].minDomains"), joined; nil when ts is valid. The complexity is
// O(len(ts)²) pair checks plus the size of the selectors. It does not
// modify ts.
func ValidateTopologySpreads(ts []TopologySpread) error {
	return joinIssues(checkSpreads(nil, "", ts))
}

// Validate reports whether p is a host port the API server accepts: Port
// in 1..65535 and Protocol "" (TCP), TCP, UDP or SCTP. The error is a
// *FieldError with an empty Object naming "port" or "protocol".
func (p HostPort) Validate() error {
	switch {
	case p.Port < 1 || p.Port > 65535:
		return &FieldError{Field: "port", Msg: fmt.Sprintf("%d is not a port", p.Port)}
	case p.Protocol != "" && p.Protocol != "TCP" && p.Protocol != "UDP" && p.Protocol != "SCTP":
		return &FieldError{Field: "protocol", Msg: fmt.Sprintf("%q is not TCP, UDP or SCTP", p.Protocol)}
	}
	return nil
}

// Same reports whether p and q are the same host port as the API server
// counts a pod's host ports, which may not repeat: the same Port,
// Protocol ("" read as TCP) and IP string. Unlike a conflict between pods,
// "" and "0.0.0.0" are different IPs here.
func (p HostPort) Same(q HostPort) bool {
	return p.Port == q.Port && portProtocol(p) == portProtocol(q) && p.IP == q.IP
}

// hostPortText formats a host port as the API server's duplicate error
// does: protocol/IP/port.
func hostPortText(p HostPort) string {
	return fmt.Sprintf("%s/%s/%d", portProtocol(p), p.IP, p.Port)
}

// joinIssues turns the issues of an object not named into FieldErrors
// with an empty Object, joined.
func joinIssues(is issues) error {
	errs := make([]error, len(is))
	for i, x := range is {
		errs[i] = &FieldError{Field: x.field, Msg: x.msg}
	}
	return errors.Join(errs...)
}
