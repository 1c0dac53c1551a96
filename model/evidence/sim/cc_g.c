#include <stdint.h>
#include <stdio.h>
#include <math.h>
#define F(S,D,NAME) __attribute__((noinline)) void NAME(const S* s, D* d, long n){ for(long i=0;i<n;i++) d[i]=(D)s[i]; }
#define G(S,NAME) __attribute__((noinline)) void NAME(const S* s, uint8_t* d, long n){ for(long i=0;i<n;i++) d[i]=(uint8_t)(int64_t)s[i]; }
F(float,int8_t,f_i8) F(float,uint8_t,f_u8) F(float,int16_t,f_i16) F(float,uint16_t,f_u16) F(float,int32_t,f_i32) F(float,uint32_t,f_u32) F(float,int64_t,f_i64) F(float,uint64_t,f_u64) G(float,f_u8v64)
F(double,int8_t,d_i8) F(double,uint8_t,d_u8) F(double,int16_t,d_i16) F(double,uint16_t,d_u16) F(double,int32_t,d_i32) F(double,uint32_t,d_u32) F(double,int64_t,d_i64) F(double,uint64_t,d_u64) G(double,d_u8v64)
double vals[]={NAN,INFINITY,-INFINITY,1e20,-1e20,2147483648.0,-2147483649.0,4294967296.0,4294967808.0,9.3e18,-2.7,65535.5,-128.5,255.5,1e19,-9.3e18,3e9,-3e9};
#define NV (sizeof(vals)/sizeof(vals[0]))
#define RUN(S,D,NAME,FMT) { S s[32]; D d[32]; for(unsigned v=0;v<NV;v++){ for(int n=1;n<=16;n+=15){ for(int i=0;i<n;i++) s[i]=(S)vals[v]; NAME(s,d,n); printf(#NAME " %s v=%.17g " FMT "\n", n==1?"scalar":"vector", (double)(S)vals[v], d[0]); } } }
int main(){
RUN(float,int8_t,f_i8,"%d") RUN(float,uint8_t,f_u8,"%u") RUN(float,int16_t,f_i16,"%d") RUN(float,uint16_t,f_u16,"%u") RUN(float,int32_t,f_i32,"%d") RUN(float,uint32_t,f_u32,"%u") RUN(float,int64_t,f_i64,"%ld") RUN(float,uint64_t,f_u64,"%lu") RUN(float,uint8_t,f_u8v64,"%u")
RUN(double,int8_t,d_i8,"%d") RUN(double,uint8_t,d_u8,"%u") RUN(double,int16_t,d_i16,"%d") RUN(double,uint16_t,d_u16,"%u") RUN(double,int32_t,d_i32,"%d") RUN(double,uint32_t,d_u32,"%u") RUN(double,int64_t,d_i64,"%ld") RUN(double,uint64_t,d_u64,"%lu") RUN(double,uint8_t,d_u8v64,"%u")
}
