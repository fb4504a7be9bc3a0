! The module of modvar.f90.
module dotmod
  double precision :: state(3)
  double precision :: gain
end module
