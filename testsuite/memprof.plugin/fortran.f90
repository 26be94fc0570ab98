! Fortran reaches GIMPLE too: an allocatable array's elements are heap,
! the array descriptor and loop variables are locals.
! { dg-do run }
! { dg-options "-O0 -fplugin-arg-memprof-stats" }
program heap_array
  implicit none
  integer, allocatable :: a(:)
  integer :: i, total
  allocate (a(1000))
  do i = 1, 1000
    a(i) = i
  end do
  total = 0
  do i = 1, 1000
    total = total + a(i)
  end do
  deallocate (a)
  if (total /= 500500) stop 1
end program heap_array
! { dg-final { scan-compiler-output "memprof: heap_array: 2 instrumented, \[1-9\]\[0-9\]* skipped \\(\[1-9\]\[0-9\]* local," } }
! { dg-final { memprof-record fn=heap_array<main alloc_count==1 total_access_count==2000 } }
