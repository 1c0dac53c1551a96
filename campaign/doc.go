// Package campaign runs tfuzz campaigns: many workers draw cases from the
// generators, check every backend against the model on the profiles it
// claims, shrink each divergence to a minimal case, and store one finding per
// signature as a case-format file.
//
// A campaign is reproducible: case i of a campaign is drawn from a seed
// derived from the campaign seed and i alone, so --seed replays it and
// --shard k/n runs the disjoint slice i ≡ k (mod n). Findings and the resume
// checkpoint are written atomically (temporary file, fsync, rename), so a
// campaign killed at any moment loses nothing it wrote and resumes where it
// stopped.
package campaign
