module github.com/nodeplan/nodeplan/kube

go 1.26
