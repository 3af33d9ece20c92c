// What the file operations of `test`'s temporary home cost on this machine's memory file system
// (docs/performance.md, "`test`'s file set-up"): a loop of each, microseconds per round.
// usage: cc -O2 -o /tmp/fs_costs scripts/fs_costs.c && /tmp/fs_costs [FOLDER]   (default /dev/shm)
// It makes FOLDER/hippo-fs-costs-<pid>/ and removes it.
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc, char **argv){
  char buf[1000]; memset(buf,'x',sizeof buf);
  char top[512]; snprintf(top,sizeof top,"%s/hippo-fs-costs-%d",argc>1?argv[1]:"/dev/shm",(int)getpid());
  if(mkdir(top,0700)){perror(top);return 1;} int d=open(top,O_RDONLY|O_DIRECTORY);
  int N=20000; double t;
  // Warm-up (the first thousands of files cost more: the kernel's caches fill).
  for(int i=0;i<N;i++){int f=openat(d,"a.md",O_WRONLY|O_CREAT|O_TRUNC|O_NOFOLLOW|O_CLOEXEC,0600); write(f,buf,sizeof buf); close(f); unlinkat(d,"a.md",0);}
  // A: create, write, close, unlink
  t=now(); for(int i=0;i<N;i++){int f=openat(d,"a.md",O_WRONLY|O_CREAT|O_TRUNC|O_NOFOLLOW|O_CLOEXEC,0600); write(f,buf,sizeof buf); close(f); unlinkat(d,"a.md",0);} printf("create+write+close+unlink %.2f us\n",(now()-t)/N*1e6);
  // B: existing file: open O_TRUNC, write, close
  int f=openat(d,"b.md",O_WRONLY|O_CREAT,0600); close(f);
  t=now(); for(int i=0;i<N;i++){int f=openat(d,"b.md",O_WRONLY|O_CREAT|O_TRUNC|O_NOFOLLOW|O_CLOEXEC,0600); write(f,buf,sizeof buf); close(f);} printf("trunc+write+close (existing) %.2f us\n",(now()-t)/N*1e6);
  // C: existing file overwrite without trunc
  t=now(); for(int i=0;i<N;i++){int f=openat(d,"b.md",O_WRONLY|O_NOFOLLOW|O_CLOEXEC,0600); write(f,buf,sizeof buf); close(f);} printf("write+close no trunc %.2f us\n",(now()-t)/N*1e6);
  // D: mkdir + rmdir
  t=now(); for(int i=0;i<N;i++){mkdirat(d,"dd",0700); unlinkat(d,"dd",AT_REMOVEDIR);} printf("mkdir+rmdir %.2f us\n",(now()-t)/N*1e6);
  // E: lseek + getdents x2 on an empty dir
  mkdirat(d,"e",0700); int e=openat(d,"e",O_RDONLY|O_DIRECTORY); char db[2048];
  t=now(); for(int i=0;i<N;i++){lseek(e,0,SEEK_SET); syscall(217,e,db,sizeof db); syscall(217,e,db,sizeof db);} printf("lseek+2 getdents %.2f us\n",(now()-t)/N*1e6);
  // F: open read close of 1000 bytes
  t=now(); for(int i=0;i<N;i++){int f=openat(d,"b.md",O_RDONLY|O_NOFOLLOW|O_CLOEXEC); read(f,db,1001); close(f);} printf("open+read+close %.2f us\n",(now()-t)/N*1e6);
  t=now(); for(int i=0;i<N;i++){int f=openat(d,"b.md",O_RDONLY|O_NOFOLLOW|O_CLOEXEC); read(f,db,1001); read(f,db,1001); close(f);} printf("open+read+read+close %.2f us\n",(now()-t)/N*1e6);
  // G: rename back and forth
  t=now(); for(int i=0;i<N;i++){renameat(d,"e",d,"e2"); renameat(d,"e2",d,"e");} printf("rename %.2f us\n",(now()-t)/N/2*1e6);
  // H: path depth: create via long absolute path
  char p[600]; snprintf(p,sizeof p,"%s/e/x.md",top);
  t=now(); for(int i=0;i<N;i++){int f=open(p,O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC,0600); write(f,buf,sizeof buf); close(f); unlink(p);} printf("abs path create..unlink %.2f us\n",(now()-t)/N*1e6);
  // I: O_APPEND
  t=now(); for(int i=0;i<N;i++){int f=openat(d,"b.md",O_WRONLY|O_TRUNC,0600); write(f,buf,500); close(f); f=openat(d,"b.md",O_WRONLY|O_APPEND); write(f,buf,100); close(f);} printf("trunc-write 500 then append 100 %.2f us\n",(now()-t)/N*1e6);
  t=now(); for(int i=0;i<N;i++){int f=openat(d,"b.md",O_WRONLY|O_TRUNC,0600); write(f,buf,500); close(f); f=openat(d,"b.md",O_WRONLY|O_TRUNC); write(f,buf,600); close(f);} printf("trunc-write 500 then trunc-write 600 %.2f us\n",(now()-t)/N*1e6);
  unlinkat(d,"b.md",0); unlinkat(d,"e",AT_REMOVEDIR); close(d); return rmdir(top)?(perror(top),1):0;
}
