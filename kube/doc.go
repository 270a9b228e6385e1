// Package kube converts Kubernetes and Karpenter API objects to and from nodeplan types.
package kube
