package testwait

// BlockedIn counts the goroutines blocked in fn.
var BlockedIn = blockedIn
