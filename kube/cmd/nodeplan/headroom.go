package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/nodeplan/nodeplan/kube"
)

// writeHeadroom prints the CapacityBuffers' headroom, one line a buffer:
// the replicas it asks for and how many of its virtual pods the plan
// holds on existing nodes, on new NodeClaims and nowhere, then the
// Provisioning condition Karpenter would write. Nothing without buffers.
func writeHeadroom(w io.Writer, hs []kube.BufferHeadroom) error {
	if len(hs) == 0 {
		return nil
	}
	if _, err := fmt.Fprintln(w, "\nHeadroom (capacity buffers):"); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  BUFFER\tREPLICAS\tEXISTING\tNEW\tFAILED\tPROVISIONING\tWHERE")
	for _, h := range hs {
		status := h.Provisioning
		if !h.Ready {
			status += " (" + h.Reason + ")"
		}
		fmt.Fprintf(tw, "  %s/%s\t%d\t%d\t%d\t%d\t%s\t%s\n", h.Namespace, h.Name, h.Replicas, h.OnExistingNodes,
			h.OnNewNodeClaims, h.Failed, status, where(h))
	}
	return tw.Flush()
}

// where names the nodes and claims that hold a buffer's pods, or "-".
func where(h kube.BufferHeadroom) string {
	out := ""
	for _, n := range h.Nodes {
		out += sep(out) + "node/" + n
	}
	for _, c := range h.NodeClaims {
		out += sep(out) + "nodeclaim/" + c
	}
	if out == "" {
		return "-"
	}
	return out
}

func sep(s string) string {
	if s == "" {
		return ""
	}
	return ","
}
