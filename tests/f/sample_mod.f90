! A module variable head sets and reads (for tests/f2xaif.cmake).
module sample_mod
  double precision :: scale
end module
