// Core-to-core round trip: two threads pinned to CPU 0 and 1 bounce a cache line; prints ns per round trip.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdatomic.h>
#include <time.h>
static _Alignas(64) atomic_long flag;
static long N = 2000000;
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);pthread_setaffinity_np(pthread_self(),sizeof s,&s);}
static void* pong(void* a){pin(1);for(long i=0;i<N;i++){while(atomic_load_explicit(&flag,memory_order_acquire)!=2*i+1);atomic_store_explicit(&flag,2*i+2,memory_order_release);}return 0;}
int main(){pthread_t t;pin(0);atomic_store(&flag,0);pthread_create(&t,0,pong,0);struct timespec a,b;clock_gettime(CLOCK_MONOTONIC,&a);
for(long i=0;i<N;i++){atomic_store_explicit(&flag,2*i+1,memory_order_release);while(atomic_load_explicit(&flag,memory_order_acquire)!=2*i+2);}
clock_gettime(CLOCK_MONOTONIC,&b);pthread_join(t,0);double ns=(b.tv_sec-a.tv_sec)*1e9+(b.tv_nsec-a.tv_nsec);printf("%.1f\n",ns/N);return 0;}
