#include <stdint.h>
#include <stdio.h>
#include <immintrin.h>
__attribute__((noinline)) void hu32(const uint16_t* s, uint32_t* d, long n){ for(long i=0;i<n;i++){ float f=_cvtsh_ss(s[i]); d[i]=(uint32_t)f; } }
int main(){ uint16_t s[32]; uint32_t d[32];
  uint16_t vals[]={0x7e00,0x7c00,0xfc00,0xc170};
  for(int v=0;v<4;v++){ for(int n=1;n<=16;n+=15){ for(int i=0;i<n;i++) s[i]=vals[v]; hu32(s,d,n); printf("%04x n=%d -> %u\n",vals[v],n,d[0]); } } }
