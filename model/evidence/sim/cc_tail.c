#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>
__attribute__((noinline)) void cd(const double* s, uint32_t* d, long n){ for(long i=0;i<n;i++) d[i]=(uint32_t)s[i]; }
__attribute__((noinline)) void cf(const float* s, uint32_t* d, long n){ for(long i=0;i<n;i++) d[i]=(uint32_t)s[i]; }
__attribute__((noinline)) void cb(const uint16_t* s, uint32_t* d, long n){ for(long i=0;i<n;i++){ uint32_t b=((uint32_t)s[i])<<16; float f; memcpy(&f,&b,4); d[i]=(uint32_t)f;} }
int main(int argc,char**argv){
  double sd[64]; float sf[64]; uint16_t sb[64]; uint32_t out[64];
  for(int n=1;n<=40;n++){
    char line[128]; int k=0;
    for(int pos=0;pos<n;pos++){
      for(int i=0;i<n;i++){sd[i]=1.0;sf[i]=1.0f;}
      sd[pos]=NAN; sf[pos]=NAN;
      if(argv[1][0]=='d') cd(sd,out,n); else if(argv[1][0]=='f') cf(sf,out,n);
      else { float fn=NAN; uint32_t b; memcpy(&b,&fn,4); for(int i=0;i<n;i++) sb[i]=0x3f80; sb[pos]=b>>16; cb(sb,out,n);}
      line[k++]= out[pos]==0x80000000u ? 'V' : (out[pos]==0 ? 's' : '?');
    }
    line[k]=0; printf("n=%2d %s\n",n,line);
  }
}
