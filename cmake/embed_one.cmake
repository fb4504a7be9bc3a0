# cmake -DIN=FILE -DOUT=FILE.c -DNAME=SYMBOL -P embed_one.cmake: FILE as
# `const char SYMBOL[]`, NUL-terminated.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" hex "${hex}")
file(WRITE ${OUT} "/* generated from ${NAME}'s source by cmake/embed_one.cmake */\nconst char ${NAME}[] = {\n${hex}0x00};\n")
