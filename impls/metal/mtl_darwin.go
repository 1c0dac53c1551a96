//go:build darwin && cgo

package metal

/*
#cgo CFLAGS: -x objective-c -fobjc-arc -Wno-deprecated-declarations
#cgo LDFLAGS: -framework Metal -framework Foundation

#include <stdlib.h>
#include <string.h>
#import <Foundation/Foundation.h>
#import <Metal/Metal.h>

// Objects cross into Go as retained pointers (CFBridgingRetain) and return
// to ARC through tf_release. Every helper drains its own autorelease pool:
// Go calls them from threads that have none, where autoreleased objects
// (names, errors, command buffers) would otherwise leak.

static void *tf_device(void) {
	@autoreleasepool {
		id<MTLDevice> d = MTLCreateSystemDefaultDevice();
		return d == nil ? NULL : (void *)CFBridgingRetain(d);
	}
}

static void *tf_queue(void *dev) {
	@autoreleasepool {
		id<MTLDevice> d = (__bridge id<MTLDevice>)dev;
		id<MTLCommandQueue> q = [d newCommandQueue];
		return q == nil ? NULL : (void *)CFBridgingRetain(q);
	}
}

static char *tf_error(NSError *e) {
	@autoreleasepool {
		return strdup(e == nil ? "unknown error" : e.localizedDescription.UTF8String);
	}
}

static char *tf_device_name(void *dev) {
	@autoreleasepool {
		id<MTLDevice> d = (__bridge id<MTLDevice>)dev;
		return strdup(d.name.UTF8String);
	}
}

// candle's compile options: fast math, fast float functions.
static void *tf_library(void *dev, const char *src, char **err) {
	@autoreleasepool {
		id<MTLDevice> d = (__bridge id<MTLDevice>)dev;
		MTLCompileOptions *opts = [[MTLCompileOptions alloc] init];
#if defined(__MAC_15_0)
		if (@available(macOS 15.0, *)) {
			opts.mathMode = MTLMathModeFast;
			opts.mathFloatingPointFunctions = MTLMathFloatingPointFunctionsFast;
		} else {
			opts.fastMathEnabled = YES;
		}
#else
		opts.fastMathEnabled = YES;
#endif
		NSError *e = nil;
		id<MTLLibrary> lib = [d newLibraryWithSource:[NSString stringWithUTF8String:src] options:opts error:&e];
		if (lib == nil) {
			*err = tf_error(e);
			return NULL;
		}
		return (void *)CFBridgingRetain(lib);
	}
}

static void *tf_pipeline(void *dev, void *lib, const char *name, int *max_threads, int *found, char **err) {
	@autoreleasepool {
		id<MTLDevice> d = (__bridge id<MTLDevice>)dev;
		id<MTLLibrary> l = (__bridge id<MTLLibrary>)lib;
		id<MTLFunction> f = [l newFunctionWithName:[NSString stringWithUTF8String:name]];
		if (f == nil) {
			*found = 0;
			return NULL;
		}
		*found = 1;
		NSError *e = nil;
		id<MTLComputePipelineState> p = [d newComputePipelineStateWithFunction:f error:&e];
		if (p == nil) {
			*err = tf_error(e);
			return NULL;
		}
		*max_threads = (int)p.maxTotalThreadsPerThreadgroup;
		return (void *)CFBridgingRetain(p);
	}
}

// Metal refuses zero-length buffers: an empty one gets one byte.
static void *tf_buffer(void *dev, const void *data, size_t n) {
	@autoreleasepool {
		id<MTLDevice> d = (__bridge id<MTLDevice>)dev;
		size_t len = n == 0 ? 1 : n;
		id<MTLBuffer> b = data == NULL
			? [d newBufferWithLength:len options:MTLResourceStorageModeShared]
			: [d newBufferWithBytes:data length:len options:MTLResourceStorageModeShared];
		return b == nil ? NULL : (void *)CFBridgingRetain(b);
	}
}

static void tf_read(void *buf, void *dst, size_t n) {
	@autoreleasepool {
		id<MTLBuffer> b = (__bridge id<MTLBuffer>)buf;
		memcpy(dst, b.contents, n);
	}
}

static void tf_release(void *p) {
	@autoreleasepool {
		if (p != NULL) {
			CFBridgingRelease(p);
		}
	}
}

// One dispatch: tf_begin, a tf_set_* per argument, tf_end.
typedef struct {
	void *cb;
	void *enc;
} tf_pass;

static tf_pass *tf_begin(void *queue, void *pipe) {
	@autoreleasepool {
		id<MTLCommandQueue> q = (__bridge id<MTLCommandQueue>)queue;
		id<MTLCommandBuffer> cb = [q commandBuffer];
		id<MTLComputeCommandEncoder> enc = [cb computeCommandEncoder];
		[enc setComputePipelineState:(__bridge id<MTLComputePipelineState>)pipe];
		tf_pass *p = malloc(sizeof *p);
		p->cb = (void *)CFBridgingRetain(cb);
		p->enc = (void *)CFBridgingRetain(enc);
		return p;
	}
}

static void tf_set_bytes(tf_pass *p, const void *data, size_t n, int index) {
	@autoreleasepool {
		id<MTLComputeCommandEncoder> enc = (__bridge id<MTLComputeCommandEncoder>)p->enc;
		[enc setBytes:data length:n atIndex:index];
	}
}

static void tf_set_buffer(tf_pass *p, void *buf, size_t offset, int index) {
	@autoreleasepool {
		id<MTLComputeCommandEncoder> enc = (__bridge id<MTLComputeCommandEncoder>)p->enc;
		[enc setBuffer:(__bridge id<MTLBuffer>)buf offset:offset atIndex:index];
	}
}

static void tf_set_threadgroup_memory(tf_pass *p, size_t n, int index) {
	@autoreleasepool {
		id<MTLComputeCommandEncoder> enc = (__bridge id<MTLComputeCommandEncoder>)p->enc;
		[enc setThreadgroupMemoryLength:n atIndex:index];
	}
}

// tf_end dispatches threadgroups (per_thread 0: size counts threadgroups)
// or threads (per_thread 1: size counts threads), commits and waits.
static char *tf_end(tf_pass *p, size_t s0, size_t s1, size_t s2, size_t g0, size_t g1, size_t g2, int per_thread) {
	@autoreleasepool {
		id<MTLComputeCommandEncoder> enc = CFBridgingRelease(p->enc);
		id<MTLCommandBuffer> cb = CFBridgingRelease(p->cb);
		free(p);
		if (per_thread) {
			[enc dispatchThreads:MTLSizeMake(s0, s1, s2) threadsPerThreadgroup:MTLSizeMake(g0, g1, g2)];
		} else {
			[enc dispatchThreadgroups:MTLSizeMake(s0, s1, s2) threadsPerThreadgroup:MTLSizeMake(g0, g1, g2)];
		}
		[enc endEncoding];
		[cb commit];
		[cb waitUntilCompleted];
		if (cb.error != nil) {
			return tf_error(cb.error);
		}
		return NULL;
	}
}

// tf_blit copies n bytes with a blit encoder (candle's copy2d_contiguous
// and copy_contiguous), commits and waits.
static char *tf_blit(void *queue, void *src, size_t src_off, void *dst, size_t dst_off, size_t n) {
	@autoreleasepool {
		id<MTLCommandQueue> q = (__bridge id<MTLCommandQueue>)queue;
		id<MTLCommandBuffer> cb = [q commandBuffer];
		id<MTLBlitCommandEncoder> blit = [cb blitCommandEncoder];
		[blit copyFromBuffer:(__bridge id<MTLBuffer>)src sourceOffset:src_off
		            toBuffer:(__bridge id<MTLBuffer>)dst destinationOffset:dst_off size:n];
		[blit endEncoding];
		[cb commit];
		[cb waitUntilCompleted];
		if (cb.error != nil) {
			return tf_error(cb.error);
		}
		return NULL;
	}
}

// tf_architecture is the device's architecture name (macOS 14 and later).
static char *tf_architecture(void *dev) {
	@autoreleasepool {
		id<MTLDevice> d = (__bridge id<MTLDevice>)dev;
		if (@available(macOS 14.0, *)) {
			return strdup(d.architecture.name.UTF8String);
		}
		return strdup("");
	}
}
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// darwinMetal is metalAPI on the system's default Metal device.
type darwinMetal struct {
	dev   unsafe.Pointer
	queue unsafe.Pointer
}

func openMetal() (metalAPI, error) {
	d := C.tf_device()
	if d == nil {
		return nil, errors.New("metal: MTLCreateSystemDefaultDevice returned no device")
	}
	q := C.tf_queue(d)
	if q == nil {
		C.tf_release(d)
		return nil, errors.New("metal: no command queue")
	}
	return &darwinMetal{dev: d, queue: q}, nil
}

func (m *darwinMetal) name() string {
	s := C.tf_device_name(m.dev)
	defer C.free(unsafe.Pointer(s))
	return C.GoString(s)
}

// cError turns an error string made by tf_error into a Go error.
func cError(s *C.char) error {
	defer C.free(unsafe.Pointer(s))
	return errors.New(C.GoString(s))
}

func (m *darwinMetal) compile(source string) (libHandle, error) {
	src := C.CString(source)
	defer C.free(unsafe.Pointer(src))
	var msg *C.char
	lib := C.tf_library(m.dev, src, &msg)
	if lib == nil {
		return libHandle{}, cError(msg)
	}
	return libHandle{lib}, nil
}

func (m *darwinMetal) pipeline(lib libHandle, name string) (pipeHandle, int, bool, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var maxThreads, found C.int
	var msg *C.char
	p := C.tf_pipeline(m.dev, lib.p, cname, &maxThreads, &found, &msg)
	switch {
	case found == 0:
		return pipeHandle{}, 0, false, nil
	case p == nil:
		return pipeHandle{}, 0, true, cError(msg)
	}
	return pipeHandle{p}, int(maxThreads), true, nil
}

func (m *darwinMetal) newBuffer(data []byte, n int) (bufHandle, error) {
	var src unsafe.Pointer
	if len(data) > 0 {
		src = unsafe.Pointer(&data[0])
	}
	b := C.tf_buffer(m.dev, src, C.size_t(n))
	runtime.KeepAlive(data) // copied by newBufferWithBytes before tf_buffer returns
	if b == nil {
		return bufHandle{}, fmt.Errorf("metal: cannot allocate a %d-byte buffer", n)
	}
	return bufHandle{b}, nil
}

func (m *darwinMetal) read(b bufHandle, n int) []byte {
	out := make([]byte, n)
	if n > 0 {
		C.tf_read(b.p, unsafe.Pointer(&out[0]), C.size_t(n))
	}
	return out
}

func (m *darwinMetal) release(h any) {
	switch h := h.(type) {
	case bufHandle:
		C.tf_release(h.p)
	case pipeHandle:
		C.tf_release(h.p)
	case libHandle:
		C.tf_release(h.p)
	}
}

// dispatch binds args and runs the pipeline. The buffers' Go values must
// outlive the command buffer: their finalizers release the Metal buffers
// (GPU.track), and only the Go values keep them reachable.
func (m *darwinMetal) dispatch(p pipeHandle, args []Arg, g Grid) error {
	defer runtime.KeepAlive(args)
	pass := C.tf_begin(m.queue, p.p)
	for i, a := range args {
		if a.Buf != nil {
			C.tf_set_buffer(pass, a.Buf.(*gpuBuffer).h.p, C.size_t(a.Off), C.int(i))
			continue
		}
		C.tf_set_bytes(pass, unsafe.Pointer(&a.Bytes[0]), C.size_t(len(a.Bytes)), C.int(i))
	}
	for i, n := range g.Shared {
		C.tf_set_threadgroup_memory(pass, C.size_t(n), C.int(i))
	}
	perThread := C.int(0)
	if g.PerThread {
		perThread = 1
	}
	msg := C.tf_end(pass, C.size_t(g.Size[0]), C.size_t(g.Size[1]), C.size_t(g.Size[2]),
		C.size_t(g.Group[0]), C.size_t(g.Group[1]), C.size_t(g.Group[2]), perThread)
	if msg != nil {
		return fmt.Errorf("metal: command buffer: %w", cError(msg))
	}
	return nil
}

func (m *darwinMetal) blit(src bufHandle, srcOff int, dst bufHandle, dstOff, n int) error {
	if msg := C.tf_blit(m.queue, src.p, C.size_t(srcOff), dst.p, C.size_t(dstOff), C.size_t(n)); msg != nil {
		return fmt.Errorf("metal: blit: %w", cError(msg))
	}
	return nil
}

func (m *darwinMetal) architecture() string {
	s := C.tf_architecture(m.dev)
	defer C.free(unsafe.Pointer(s))
	return C.GoString(s)
}
