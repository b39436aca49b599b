module github.com/learn-k8s/informer

go 1.25
