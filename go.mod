module github.com/nodeplan/nodeplan

go 1.26

require (
	github.com/google/btree v1.1.3 // indirect
	github.com/leanovate/gopter v0.2.11 // indirect
	github.com/robfig/cron/v3 v3.0.1 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
