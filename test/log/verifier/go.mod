module claimrights-registry/log-verifier

go 1.26.0

require (
	github.com/gowebpki/jcs v1.0.2
	golang.org/x/mod v0.43.0
)
