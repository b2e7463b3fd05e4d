// Command fakebrreg answers GET /enheter/{orgnr} with the recorded unit in
// the file given as its first argument, as that number, on the address
// given as its second: the fake register of .ci/budget-wait.sh.
package main

import (
	"net/http"
	"os"
	"strings"
	"time"
)

func main() {
	body, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	srv := &http.Server{Addr: os.Args[2], ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := strings.CutPrefix(r.URL.Path, "/enheter/")
		if !ok {
			w.WriteHeader(404)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(strings.ReplaceAll(string(body), "923609016", id)))
	})}
	if err := srv.ListenAndServe(); err != nil {
		panic(err)
	}
}
