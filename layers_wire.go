// layers_wire.go plugs the third reading (the real wire: transport.go,
// status_errors.go, unstructured.go, lossless.go) into the first, as
// layers.go does the second: it sets the package variables the first reading
// names where it uses them, and nothing else sets them.
//
// client-go counterpart: none as such; client-go's rest and apimachinery
// packages do all of this unconditionally.

package informer

import "net/http"

func init() {
	transportFor = func(cfg RESTConfig) (http.RoundTripper, error) { return newTransport(cfg) } // restclient.go → transport.go
	newGenericObject = func() Object { return &Unstructured{} }                                 // restclient.go → unstructured.go
	endsWatchNormally = endsWatchLikeClientGo                                                   // watch.go → transport.go
	describeType = describeKind(describeType)                                                   // reflector.go → unstructured.go
	errorFromResponse = statusErrorFromResponse                                                 // restclient.go → status_errors.go
	isTooLargeResourceVersionError = isResourceVersionTooLarge                                  // reflector.go → status_errors.go

	// Speed: the one call into internal/jsonread.
	newBodyDecoder = newFastBodyDecoder // watch.go → lossless.go
}
